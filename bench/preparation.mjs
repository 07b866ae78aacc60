#!/usr/bin/env node
// What preparing stored transcripts costs (issue 45): each transcript is indexed for search and
// derived for export once, after it is stored, on a worker thread of its own.
//   P1. CPU per stored video by phase: the fetch (requests, reading the answers), the store (the
//       transaction that keeps the body), the index and the derivation, each measured alone on the
//       same transcripts, in-process from the sources (bundled), alternated rounds.
//   P2. The data folder's growth per 1,000 transcripts for what they derive, beside their share of the
//       corpus ZIP: a job fetched and exported by the built CLI, its database read with dbstat.
// Run with `npm run bench:preparation` (it builds the CLI first). PREPARATION_VIDEOS (default 2,000)
// sets the job's size, BENCH_REPEATS (default 3) the rounds of P1.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bundleSources,
  cli,
  loadAverage,
  machine,
  record,
  root,
  startSimulator,
  watchProcess,
} from './support.mjs';

const videos = Number(process.env.PREPARATION_VIDEOS ?? 2_000);
const repeats = Number(process.env.BENCH_REPEATS ?? 3);
const results = { machine: machine(), videos, repeats, figures: {} };
console.log(`machine: ${results.machine}; ${videos} videos, ${repeats} rounds; load ${loadAverage()}`);

const core = await bundleSources('preparation', {
  'src/core/store/index.ts': ['openDatabase'],
  'src/core/store/transcripts.ts': ['storeTranscript'],
  'src/core/engine/index.ts': ['Engine', 'PreparationLoop'],
  'src/core/app/derivation.ts': ['EXPORT_DERIVATION'],
  'src/core/api/index.ts': ['createClient', 'realClock'],
  'src/shared/sources.ts': ['parseSource'],
});
const { default: BetterSqlite3 } = await import('better-sqlite3');
const work = mkdtempSync(join(tmpdir(), 'scriptorium-preparation-'));
const sim = await startSimulator([]);
try {
  await cpuByPhase();
  await growth();
} finally {
  await sim.stop();
  rmSync(work, { recursive: true, force: true });
}
mkdirSync(join(root, 'bench', '.work'), { recursive: true });
writeFileSync(join(root, 'bench', '.work', 'preparation.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nload after: ${loadAverage()}; all figures: bench/.work/preparation.json`);

// ---------------------------------------------------------------------------------------------

/** Milliseconds of CPU (user + system, every thread) since `since`. */
function cpuMs(since) {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** P1: a fetch without preparing, then its transcripts stored again, indexed, derived: CPU ms per transcript. */
async function cpuByPhase() {
  console.log('\nP1. CPU per stored video by phase (ms), in-process, one round after another');
  const client = core.createClient({ baseUrl: sim.url, apiKey: sim.key, userAgent: 'Scriptorium/bench' });
  const phases = { fetch: [], store: [], index: [], derive: [] };
  try {
    // A warm-up round, so that the measured ones run compiled code, as a long job does.
    for (let round = -1; round < repeats; round++) {
      const db = core.openDatabase(join(work, `phases-${round}.db`));
      const engine = new core.Engine({ db, client, clock: core.realClock });
      // The fetch alone: nothing is prepared while it runs.
      engine.preparation.stored = () => undefined;
      engine.preparation.drain = async () => undefined;
      const { job } = engine.findOrCreateJob({
        sources: [core.parseSource(`PLbenchPreparation${round + 1}_n${videos}`).source],
        skipped: [],
        options: { langs: ['orig'], includeTimestamp: true, sendMetadata: true },
      });
      let before = process.cpuUsage();
      const outcome = await engine.run(job.id, { concurrency: 16 });
      if (outcome.status !== 'completed') throw new Error(`the fetch ended ${outcome.status}`);
      const fetchAndStore = cpuMs(before);
      const stored = db.prepare('SELECT * FROM transcripts ORDER BY id').all();

      // The store alone: the same bodies kept again in groups of 16, a transaction each, as a run does.
      const again = core.openDatabase(join(work, `store-${round}.db`));
      const keep = again.transaction((group) => {
        for (const row of group) {
          core.storeTranscript(again, {
            videoId: row.video_id,
            requestedLang: row.requested_lang,
            includeTimestamp: row.include_timestamp === 1,
            sendMetadata: row.send_metadata === 1,
            language: row.language,
            title: row.title,
            segmentCount: row.segment_count,
            body: row.body,
            fetchedAt: row.fetched_at,
          });
        }
      });
      before = process.cpuUsage();
      for (let at = 0; at < stored.length; at += 16) keep.immediate(stored.slice(at, at + 16));
      const store = cpuMs(before);
      again.close();

      // The index alone, then the derivation alone, as the worker thread does them.
      before = process.cpuUsage();
      await new core.PreparationLoop(db, undefined).run({ stopped: () => false });
      const index = cpuMs(before);
      before = process.cpuUsage();
      await new core.PreparationLoop(db, core.EXPORT_DERIVATION).run({ stopped: () => false });
      const derive = cpuMs(before);
      const derived = db.prepare('SELECT count(*) FROM derived_transcripts').pluck().get();
      db.close();
      if (derived !== stored.length) throw new Error(`derived ${derived} of ${stored.length}`);
      const per = (ms) => ms / stored.length;
      if (round < 0) continue;
      phases.fetch.push(per(fetchAndStore - store));
      phases.store.push(per(store));
      phases.index.push(per(index));
      phases.derive.push(per(derive));
      console.log(
        `[P1] round ${round + 1}, ${stored.length} transcripts: fetch ${per(fetchAndStore - store).toFixed(3)}, store ${per(store).toFixed(3)}, index ${per(index).toFixed(3)}, derive ${per(derive).toFixed(3)} ms; load ${loadAverage()}`,
      );
    }
  } finally {
    await client.close();
  }
  for (const [phase, values] of Object.entries(phases))
    record(results, 'P1', `${phase}: CPU ms per stored video`, values);
}

/** P2: what the data folder keeps for what the transcripts derive, per 1,000, beside their share of the ZIP. */
async function growth() {
  console.log('\nP2. The data folder per 1,000 transcripts: what they derive, beside their share of the ZIP');
  const data = join(work, 'growth-data');
  const out = join(work, 'growth.zip');
  const playlist = `PLbenchPreparationGrowth_n${videos}`;
  const child = spawn(process.execPath, [cli, 'export', playlist, '--out', out, '--concurrency', '16'], {
    env: {
      ...process.env,
      TRANSCRIPT_API_KEY: sim.key,
      TRANSCRIPT_API_BASE_URL: sim.url,
      SCRIPTORIUM_DATA_DIR: data,
    },
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const run = await watchProcess(child);
  if (run.code !== 0) throw new Error(`the export failed (exit ${run.code})`);
  const db = new BetterSqlite3(join(data, 'scriptorium.db'), { readonly: true });
  const bytesOf = (names) =>
    db
      .prepare(
        `SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name IN (${names.map(() => '?').join(',')})`,
      )
      .pluck()
      .get(...names);
  const transcripts = db.prepare('SELECT count(*) FROM transcripts').pluck().get();
  const derived = bytesOf(['derived_transcripts', 'derived_transcripts_made']);
  const bodies = bytesOf(['transcripts']);
  const payload = db
    .prepare('SELECT sum(length(record_tail) + length(files)) FROM derived_transcripts')
    .pluck()
    .get();
  db.close();
  const thousands = transcripts / 1000;
  const mib = (bytes) => bytes / 2 ** 20;
  const zip = statSync(out).size;
  console.log(
    `[P2] ${transcripts} transcripts: derived ${mib(derived / thousands).toFixed(2)} MiB per 1,000 (blobs ${mib(payload / thousands).toFixed(2)}), bodies ${mib(bodies / thousands).toFixed(2)}, the ZIP ${mib(zip / thousands).toFixed(2)} MiB per 1,000`,
  );
  record(results, 'P2', 'derived transcripts: MiB per 1,000 transcripts', [mib(derived / thousands)], 2);
  record(results, 'P2', 'their share of the corpus ZIP: MiB per 1,000', [mib(zip / thousands)], 2);
  record(results, 'P2', 'their bodies: MiB per 1,000 (for comparison)', [mib(bodies / thousands)], 2);
}
