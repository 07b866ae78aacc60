import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The layer messages ESLint gives `code` as if it were the file at `path`. */
async function layerProblems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${path}` });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'scriptorium/layers')
    .map((m) => m.message);
}

describe('the layering allow-list (eslint/layers.js)', () => {
  it.each([
    ['the renderer reaching into core', 'src/renderer/src/x.ts', "import { openApp } from '../../core/app';"],
    ['the renderer loading Node', 'src/renderer/src/x.ts', "import { readFileSync } from 'node:fs';"],
    ['a face reaching past core/app', 'src/cli/x.ts', "import { Engine } from '../core/engine';"],
    ['core reaching for electron', 'src/core/engine/x.ts', "import { app } from 'electron';"],
    ['core reaching for a face', 'src/core/app/x.ts', "import { buildProgram } from '../../cli/program';"],
    [
      'core reaching for the simulator',
      'src/core/api/x.ts',
      "import { startSimulator } from '../../simulator';",
    ],
    [
      'an engine part reaching for the application',
      'src/core/store/x.ts',
      "import { openApp } from '../app';",
    ],
    ['the preload loading a package', 'src/preload/x.ts', "import { z } from 'zod';"],
    ['shared loading Node', 'src/shared/x.ts', "export { join } from 'node:path';"],
    ['the simulator sharing the client', 'src/simulator/x.ts', "import { createClient } from '../core/api';"],
  ])('refuses %s', async (_name, path, code) => {
    expect(await layerProblems(path, code)).toHaveLength(1);
  });

  it.each([
    [
      'a face using core/app and shared',
      'src/main/x.ts',
      "import { openApp } from '../core/app';\nimport { commands } from '../shared/contract';",
    ],
    [
      'the renderer using shared and React',
      'src/renderer/src/x.ts',
      "import { useState } from 'react';\nimport { EXPORT_FORMATS } from '../../shared/contract';",
    ],
    [
      'the engine using the store and the client',
      'src/core/engine/x.ts',
      "import { openDatabase } from '../store';\nimport { createClient } from '../api';",
    ],
  ])('allows %s', async (_name, path, code) => {
    expect(await layerProblems(path, code)).toEqual([]);
  });
});

describe('the folders of core/export (eslint/layers.js)', () => {
  it.each([
    [
      'corpus/ consulting an earlier export',
      'src/core/export/corpus/x.ts',
      "import { PreviousCorpus } from '../reuse/previous-corpus';",
    ],
    [
      'corpus/ reaching for the writer above it',
      'src/core/export/corpus/x.ts',
      "import { writeCorpus } from '../write-corpus';",
    ],
    [
      'zip/ knowing the corpus',
      'src/core/export/zip/x.ts',
      "import { CORPUS_ENTRY } from '../corpus/schema';",
    ],
    [
      'zip/ knowing reuse',
      'src/core/export/zip/x.ts',
      "import { reuseFieldFor } from '../reuse/reuse-field';",
    ],
    [
      'verify/ reading how a corpus is rendered',
      'src/core/export/verify/x.ts',
      "import { indexRow } from '../corpus/tables';",
    ],
    [
      'verify/ reading reuse',
      'src/core/export/verify/x.ts',
      "import { readCommentRecord } from '../reuse/comment-record';",
    ],
    [
      'verify/ reading the writer',
      'src/core/export/verify/x.ts',
      "import { writeCorpus } from '../write-corpus';",
    ],
  ])('refuses %s', async (_name, path, code) => {
    expect(await layerProblems(path, code)).toHaveLength(1);
  });

  it.each([
    [
      'verify/ reading the ZIP format and the corpus schema',
      'src/core/export/verify/x.ts',
      "import { ZipReader } from '../zip/reader';\nimport { CORPUS_ENTRY } from '../corpus/schema';",
    ],
    [
      'corpus/ using the ZIP layout',
      'src/core/export/corpus/x.ts',
      "import { printable } from '../zip/layout';",
    ],
    [
      'reuse/ reading the corpus and the ZIP format',
      'src/core/export/reuse/x.ts',
      "import { entryPath } from '../corpus/naming';\nimport { ZipReader } from '../zip/reader';",
    ],
    [
      'the top level joining all four',
      'src/core/export/x.ts',
      [
        "import { renderManifest } from './corpus/manifest';",
        "import { PreviousCorpus } from './reuse/previous-corpus';",
        "import { verifyCorpus } from './verify/verify';",
        "import { AtomicZipFile } from './zip/writer';",
      ].join('\n'),
    ],
  ])('allows %s', async (_name, path, code) => {
    expect(await layerProblems(path, code)).toEqual([]);
  });
});
