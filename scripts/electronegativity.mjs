#!/usr/bin/env node
// Runs electronegativity (Doyensec's Electron security linter) on src/, told the Electron version
// this app ships. Its package requires commander without declaring it and only works with the old
// commander 2, while the CLI uses a current one: commander-2 (an npm alias) is handed to it alone.
// Usage: node scripts/electronegativity.mjs OUTPUT.csv
import Module, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const electronVersion = require('electron/package.json').version;
const output = process.argv[2] ?? 'electronegativity.csv';

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const fromLinter = parent?.filename?.includes('@doyensec/electronegativity') ?? false;
  return resolve.call(this, fromLinter && request === 'commander' ? 'commander-2' : request, parent, ...rest);
};
const source = fileURLToPath(new URL('../src', import.meta.url));
process.argv = [
  process.argv[0],
  'electronegativity',
  '-i',
  source,
  '-e',
  electronVersion,
  '-o',
  output,
  '-r',
];
require('@doyensec/electronegativity/dist/index.js');
