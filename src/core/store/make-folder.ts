import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Creates `folder` and its missing parents, like mkdir -p. Not mkdirSync's recursive mode: that one
 * loops forever where mkdir answers ENOENT under a parent that exists (anywhere in /proc, say).
 * Throws mkdir's own error: EEXIST when a file has the name of a folder on the way, EACCES, EPERM,
 * EROFS or ENOENT where no folder can be made.
 */
export function makeFolder(folder: string): void {
  if (isFolder(folder)) return;
  const parent = dirname(folder);
  if (parent !== folder) makeFolder(parent);
  try {
    mkdirSync(folder);
  } catch (error) {
    // Another process may have made it meanwhile.
    if (!isFolder(folder)) throw error;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
