import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readVocabulary } from '../../eslint/vocabulary.js';
import {
  ITEM_STATUSES,
  JOB_STATUSES,
  LIST_STATUSES,
  ORIGINAL_TRACK,
  SOURCE_KINDS,
  STOP_REASONS,
} from '../../src/shared/vocabulary';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The vocabulary messages ESLint gives `code` as if it were the file at `path`. */
async function restatements(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}/${path}` });
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'scriptorium/vocabulary')
    .map((message) => message.message);
}

describe('the vocabulary rule (eslint/vocabulary.js)', () => {
  it('knows exactly the values src/shared/vocabulary.ts defines', () => {
    const values = [
      ...JOB_STATUSES,
      ...ITEM_STATUSES,
      ...LIST_STATUSES,
      ...STOP_REASONS,
      ...SOURCE_KINDS,
      ORIGINAL_TRACK,
    ];
    expect([...readVocabulary().keys()].sort()).toEqual([...new Set(values)].sort());
  });

  it.each([
    ['a status compared', 'src/core/app/x.ts', "export const done = (job) => job.status === 'completed';", 1],
    [
      'a reason switched on',
      'src/cli/x.ts',
      "export function f(stop) { switch (stop.reason) { case 'budget': return 1; } return 0; }",
      1,
    ],
    [
      'a status given as a value',
      'src/core/engine/x.ts',
      "export const change = { status: 'paused', at: '' };",
      1,
    ],
    [
      'both branches of a conditional status',
      'src/core/engine/x.ts',
      "export const page = (done) => ({ walkStatus: done ? 'done' : 'pending' });",
      2,
    ],
    ['a status given to a setter', 'src/core/engine/x.ts', "failWalk(db, 1, 'failed', {});", 1],
    [
      'a restated list',
      'src/renderer/src/x.ts',
      "export const ACTIVE = new Set(['running', 'queued', 'waiting_credits']);",
      3,
    ],
    [
      'a status held by a private field',
      'src/main/x.ts',
      "export class A { #status; stop() { this.#status = 'cancelled'; } }",
      1,
    ],
    [
      "a status quoted in the store's SQL",
      'src/core/store/x.ts',
      "export const sql = `UPDATE items SET status = 'pending' WHERE status = 'fetching'`;",
      2,
    ],
    [
      'a source kind compared',
      'src/core/engine/x.ts',
      "export const f = (source) => source.kind === 'channel';",
      1,
    ],
    [
      'a source kind switched on',
      'src/core/engine/x.ts',
      "export function f(source) { switch (source.kind) { case 'search': return 1; } return 0; }",
      1,
    ],
    [
      'a source kind given as a value',
      'src/shared/x.ts',
      "export const read = (id) => ({ kind: 'playlist', id });",
      1,
    ],
    [
      'a source kind held by its own name',
      'src/core/app/x.ts',
      "export const f = (row) => row.sourceKind !== 'video';",
      1,
    ],
    [
      'a source kind looked up among kinds',
      'src/core/export/x.ts',
      "export const f = (kinds) => kinds.has('search');",
      1,
    ],
    [
      'a restated list of source kinds',
      'src/core/engine/x.ts',
      "export const Kind = z.enum(['video', 'playlist', 'channel', 'search']);",
      4,
    ],
    [
      "a source kind quoted in the store's SQL",
      'src/core/store/x.ts',
      "export const sql = `SELECT id FROM sources WHERE kind = 'video'`;",
      1,
    ],
    ['the original track as a constant', 'src/core/export/x.ts', "const ORIGINAL = 'orig';", 1],
    [
      'the original track wherever it stands',
      'src/core/app/x.ts',
      "export const languages = (lang) => (lang === '' ? 'orig' : lang);",
      1,
    ],
  ])('reports %s', async (_name, path, code, reports) => {
    const messages = await restatements(path, code);
    expect(messages).toHaveLength(reports);
    expect(messages[0]).toMatch(/of src\/shared\/vocabulary\.ts: name it \([A-Z_]+(\.[a-z_]+|\))/);
  });

  it.each([
    [
      'the vocabulary itself',
      'src/shared/vocabulary.ts',
      "export const JOB_STATUSES = ['draft', 'queued'] as const;",
    ],
    [
      'a named value',
      'src/core/app/x.ts',
      "import { JOB_STATUS } from '../../shared/vocabulary';\nexport const done = (job) => job.status === JOB_STATUS.completed;",
    ],
    [
      'types',
      'src/core/engine/x.ts',
      "export type Outcome = { status: 'paused'; reason: 'budget' | 'user' };",
    ],
    [
      "a screen's own phases",
      'src/renderer/src/x.ts',
      "export const shown = (preview) => preview.phase === 'failed';",
    ],
    ['event names', 'src/core/export/x.ts', "worker.on('error', () => undefined);"],
    [
      'a shipped migration',
      'src/core/store/migrations/009-x.ts',
      "export const sql = `UPDATE items SET status = 'pending' WHERE status = 'fetching'`;",
    ],
    ['the simulator', 'src/simulator/x.ts', "export const answer = { status: 'failed' };"],
    [
      'a named source kind and the original track',
      'src/core/engine/x.ts',
      "import { ORIGINAL_TRACK, SOURCE_KIND } from '../../shared/vocabulary';\nexport const f = (source, lang) => source.kind === SOURCE_KIND.channel && lang === ORIGINAL_TRACK;",
    ],
    [
      "the service's own words for a search",
      'src/core/engine/x.ts',
      "export const ask = (client, q) => client.search({ q, type: 'video' }).then((answer) => answer.type === 'channel');",
    ],
    ['words for people', 'src/cli/x.ts', "export const line = (count) => plural(count, 'video');"],
    ['a command named like a kind', 'src/cli/x.ts', "program.command('search');"],
    [
      'source kinds as types',
      'src/core/engine/x.ts',
      "export type Listed = { kind: 'playlist' | 'channel'; endpoint: 'playlist/videos' | 'search' };",
    ],
    [
      'the original track inside help text',
      'src/cli/x.ts',
      "export const help = 'tried in order, e.g. es,en,orig';",
    ],
    [
      'the sync of a job, its record and its settings',
      'src/core/app/x.ts',
      'export const f = (ctx, db, id) => [ctx.syncHere(id), syncsOfJob(db, id), readSyncSettingsFields(), autoSyncJob];',
    ],
    [
      "Node's synchronous calls",
      'src/core/export/x.ts',
      'export const f = (fs, p) => [fs.readFileSync(p), fs.fsyncSync(1)];',
    ],
  ])('leaves alone %s', async (_name, path, code) => {
    expect(await restatements(path, code)).toEqual([]);
  });

  it.each([
    [
      'a read of lists named a sync',
      'src/core/engine/x.ts',
      'export async function syncLists(ctx) { return ctx; }',
    ],
    [
      "a page of a list's read named a sync",
      'src/core/store/x.ts',
      'export const recordSyncPage = (db) => db;',
    ],
    ["Keep current's round named a sync", 'src/core/app/x.ts', 'export class S { async #syncRound() {} }'],
    [
      'a write to the disk named a sync',
      'src/core/export/x.ts',
      'export async function syncDirectory(path) { return path; }',
    ],
    ['a run mode named a sync', 'src/core/engine/x.ts', 'export const run = (options) => options.syncMode;'],
  ])('reports %s', async (_name, path, code) => {
    const messages = await restatements(path, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /uses "sync" for what a sync is not: a sync is a finished job brought up to date/,
    );
  });
});
