/** What every answer of the catalog is computed from. */
import type { UploadBook } from './uploads';

export interface Catalog {
  /** Seeds every generated value. */
  seed: number;
  /** The uploads added while the simulator runs: the catalog's one state. */
  uploads: UploadBook;
  /** The simulator's clock (epoch ms): listings word a video's age against it ("3 hours ago"). */
  now: () => number;
}
