import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** Where exports for download go: a folder of the data folder, emptied when the app starts. */
export function exportsFolder(dataDir: string): string {
  const folder = join(dataDir, 'exports');
  mkdirSync(folder, { recursive: true });
  return folder;
}
