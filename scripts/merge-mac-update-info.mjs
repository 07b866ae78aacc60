#!/usr/bin/env node
// `node scripts/merge-mac-update-info.mjs OUT IN...`: one latest-mac.yml of the two the release
// workflow's Mac jobs write, one per architecture (each built on a Mac of its own CPU). A Mac's
// updater reads the one latest-mac.yml of a release and picks the files of its CPU from it
// (electron-updater's MacUpdater: "arm64" in the name for Apple silicon), so it must list both.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

// The YAML reader electron-updater reads these files with.
const require = createRequire(import.meta.url);
const yaml = createRequire(require.resolve('electron-updater/package.json'))('js-yaml');

/**
 * The update information of one release for every architecture: the files of all, once each, and
 * the latest release date. Refuses files of different versions, which would mix two releases.
 */
export function mergeUpdateInfo(infos) {
  const versions = [...new Set(infos.map((info) => info.version))];
  if (versions.length !== 1) {
    throw new Error(`the files are of different versions (${versions.join(', ')}): one release's only`);
  }
  const files = [];
  for (const info of infos) {
    for (const file of info.files ?? []) {
      if (!files.some((known) => known.url === file.url)) files.push(file);
    }
  }
  const releaseDate = infos
    .map((info) => info.releaseDate)
    .sort()
    .at(-1);
  // path and sha512 at the top are what older updaters read: the first file's, as electron-builder writes them.
  const [first] = files;
  return { version: versions[0], files, path: first?.url, sha512: first?.sha512, releaseDate };
}

function main([out, ...inputs]) {
  if (out === undefined || inputs.length === 0) {
    console.error('usage: node scripts/merge-mac-update-info.mjs OUT IN...');
    return 2;
  }
  try {
    const infos = inputs.map((file) => yaml.load(readFileSync(file, 'utf8')));
    writeFileSync(out, yaml.dump(mergeUpdateInfo(infos), { lineWidth: -1 }));
    return 0;
  } catch (error) {
    console.error(`merge-mac-update-info: ${error.message}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
