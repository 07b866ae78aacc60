/** What every answer of the catalog is computed from. */
import type { PlaylistEditBook } from './playlist-edits';
import type { UploadBook } from './uploads';

export interface Catalog {
  /** Seeds every generated value. */
  seed: number;
  /** The uploads added while the simulator runs. */
  uploads: UploadBook;
  /** The playlists edited while the simulator runs (videos appended, removed, moved). */
  edits: PlaylistEditBook;
  /** Videos per page of playlist/videos and channel/videos (100, as the notes' samples hold). */
  pageSize: number;
  /** The simulator's clock (epoch ms): listings word a video's age against it ("3 hours ago"). */
  now: () => number;
}
