#!/usr/bin/env node
// Kill chaos, the long version of tests/reliability/kill-chaos.test.ts: one export of a channel and
// a playlist, killed with SIGKILL at seeded points of its walk, its fetch and its ZIP, then run to
// its end. Prints what was killed where, the credits bought twice against the bound (the requests in
// flight at the kills), the database's integrity, whether the ZIP is sound and whole, and the time.
// Run with `npm run chaos` (it builds the CLI first); exits 1 when a check fails.
//
// The phases are told apart by what the job has done, never by timing: the walk once the database
// records some pages bought but not all (pages are slowed by a 'delay' fault), the fetch once it
// records every walk done, the ZIP once a new temporary file appears beside the target.
//
// Settings (environment): CHAOS_SEED (default 1), CHAOS_KILLS_PER_PHASE (8), CHAOS_CONCURRENCY (8).
// Every process talks only to 127.0.0.1; everything stops by itself.
import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, machine, startSimulator } from './support.mjs';

const seed = Number(process.env.CHAOS_SEED ?? 1);
const killsPerPhase = Number(process.env.CHAOS_KILLS_PER_PHASE ?? 8);
const concurrency = Number(process.env.CHAOS_CONCURRENCY ?? 8);

const PLAYLIST_VIDEOS = 3000;
const CHANNEL_VIDEOS = 2000;
/** The channel first: the walk kills land in both lists (its 20 pages, then the playlist's first). */
const SOURCES = [`@chaos_bench_channel_n${CHANNEL_VIDEOS}`, `PLchaosBenchPlaylist_n${PLAYLIST_VIDEOS}`];
const VIDEOS = PLAYLIST_VIDEOS + CHANNEL_VIDEOS;
/** The service lists 100 videos a page. */
const PAGES = Math.ceil(PLAYLIST_VIDEOS / 100) + Math.ceil(CHANNEL_VIDEOS / 100);
const PAGE_DELAY_MS = 150;
/** A ZIP-phase kill comes this long at most after the temporary ZIP appears. */
const ZIP_KILL_WINDOW_MS = 3000;
/** Fetch-phase kills stop short of the end: about 5% of videos have no captions and cost nothing. */
const LAST_FETCH_KILL_SHARE = 0.85;
const POLL_MS = 5;

const started = performance.now();
const work = mkdtempSync(join(tmpdir(), 'scriptorium-chaos-'));
const sim = await startSimulator();
try {
  const summary = await runChaos(sim);
  report(summary);
  process.exitCode = summary.failures.length === 0 ? 0 : 1;
} finally {
  await sim.stop();
  rmSync(work, { recursive: true, force: true });
}

async function runChaos(sim) {
  const random = seededRandom(seed);
  const dataDir = join(work, 'data');
  const outDir = join(work, 'out');
  mkdirSync(outDir);
  const out = join(outDir, 'chaos.zip');
  const dbFile = join(dataDir, 'scriptorium.db');
  const args = ['export', ...SOURCES, '--concurrency', String(concurrency), '--out', out];
  const env = {
    TRANSCRIPT_API_KEY: sim.key,
    TRANSCRIPT_API_BASE_URL: sim.url,
    SCRIPTORIUM_DATA_DIR: dataDir,
  };
  const failures = [];
  const check = (ok, what) => {
    if (!ok) failures.push(what);
  };
  const kills = { walk: 0, fetch: 0, zip: 0 };
  const seconds = {};

  /** Runs the command and kills it once `due()` resolves true; false when it exited first. */
  async function killWhen(due) {
    const outBefore = digestOf(out);
    const child = spawn(process.execPath, [cli, ...args], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    let ended;
    void exited.then((result) => (ended = result));
    while (ended === undefined && !(await due())) await sleep(POLL_MS);
    if (ended !== undefined) {
      check(ended.code === 0, `a run that was not killed exited ${ended.code}: ${stderr.trim()}`);
      return false;
    }
    child.kill('SIGKILL');
    await exited;
    check(digestOf(out) === outBefore, 'a killed run changed the file at --out');
    return true;
  }

  const job = jobWatcher(dbFile);
  let phaseStart = performance.now();
  await sim.admin('POST', 'faults', {
    match: { endpoint: 'playlist/videos' },
    kind: 'delay',
    delayMs: PAGE_DELAY_MS,
  });
  await sim.admin('POST', 'faults', {
    match: { endpoint: 'channel/videos' },
    kind: 'delay',
    delayMs: PAGE_DELAY_MS,
  });
  // Within the first half of the walk, so that half the videos are left for the fetch kills.
  for (const threshold of pointsBetween(random, killsPerPhase, 1, Math.floor(PAGES / 2))) {
    if (await killWhen(async () => job.pagesBought() >= threshold)) kills.walk += 1;
  }
  await sim.admin('DELETE', 'faults');
  seconds.walk = elapsed(phaseStart);

  phaseStart = performance.now();
  const charged = async () => (await sim.admin('GET', 'stats')).charged;
  const lastFetchKill = PAGES + Math.floor(VIDEOS * LAST_FETCH_KILL_SHARE);
  for (const threshold of pointsBetween(random, killsPerPhase, (await charged()) + 100, lastFetchKill)) {
    if (await killWhen(async () => job.walkDone() && (await charged()) >= threshold)) kills.fetch += 1;
  }
  job.close();
  seconds.fetch = elapsed(phaseStart);

  // The first run fetches what the fetch kills left; from then on the job is only exported again.
  phaseStart = performance.now();
  for (let attempt = 0; kills.zip < killsPerPhase && attempt < 3 * killsPerPhase; attempt++) {
    const delay = Math.floor(random() * ZIP_KILL_WINDOW_MS);
    const before = new Set(temporaryFiles(outDir));
    let appearedAt;
    const due = async () => {
      appearedAt ??= temporaryFiles(outDir).some((name) => !before.has(name)) ? performance.now() : undefined;
      return appearedAt !== undefined && performance.now() >= appearedAt + delay;
    };
    if (await killWhen(due)) kills.zip += 1;
  }
  seconds.zip = elapsed(phaseStart);
  for (const phase of ['walk', 'fetch', 'zip']) {
    check(kills[phase] === killsPerPhase, `${kills[phase]} of ${killsPerPhase} kills landed in the ${phase}`);
  }

  phaseStart = performance.now();
  const final = spawnSync(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
  });
  check(final.status === 0, `the final run exited ${final.status}: ${final.stderr.trim()}`);
  seconds.final = elapsed(phaseStart);

  const ledger = await sim.admin('GET', 'ledger');
  const perVideo = new Map();
  for (const charge of ledger.filter((c) => c.endpoint === 'transcript')) {
    perVideo.set(charge.videoId, (perVideo.get(charge.videoId) ?? 0) + 1);
  }
  const extraTranscripts = [...perVideo.values()].reduce((sum, count) => sum + count - 1, 0);
  const pagesCharged = ledger.filter((c) => c.endpoint !== 'transcript').length;
  const requestKills = kills.walk + kills.fetch;
  // In flight at a kill: requests sent, and answers in but not yet committed (groups of at most `concurrency`).
  const transcriptBound = requestKills * concurrency * 2;
  check(
    extraTranscripts <= transcriptBound,
    `${extraTranscripts} transcripts bought twice, above ${transcriptBound}`,
  );
  check(pagesCharged <= PAGES + kills.walk, `${pagesCharged} pages charged, above ${PAGES + kills.walk}`);

  const db = new Database(dbFile, { readonly: true });
  const integrity = db.pragma('integrity_check', { simple: true });
  const stored = db.prepare('SELECT count(*) AS n FROM ledger').get().n;
  db.close();
  check(integrity === 'ok', `integrity_check: ${integrity}`);
  check(stored <= ledger.length, `${stored} credits stored, more than the ${ledger.length} charged`);

  const zip = checkZip(out);
  check(zip.ok, `the ZIP: ${zip.problem}`);
  check(zip.videos === VIDEOS, `the ZIP lists ${zip.videos} videos of ${VIDEOS}`);
  check(zip.complete, 'the manifest does not say complete');
  check(
    zip.transcripts === perVideo.size,
    `${zip.transcripts} transcripts in the ZIP, ${perVideo.size} bought`,
  );
  const leftBehind = temporaryFiles(outDir);
  check(leftBehind.length === 0, `${leftBehind.length} temporary file(s) left beside the ZIP`);

  return {
    kills,
    seconds,
    extraTranscripts,
    transcriptBound,
    pagesCharged,
    charged: ledger.length,
    stored,
    integrity,
    zip,
    leftBehind: leftBehind.length,
    failures,
  };
}

function report(s) {
  const total = s.kills.walk + s.kills.fetch + s.kills.zip;
  const lines = [
    `machine: ${machine()}`,
    `job: ${SOURCES.join(' ')} (${VIDEOS} videos, ${PAGES} pages), concurrency ${concurrency}, seed ${seed}`,
    `kills: ${total} (walk ${s.kills.walk}, fetch ${s.kills.fetch}, ZIP ${s.kills.zip})`,
    `transcripts bought twice: ${s.extraTranscripts} (bound: ${s.transcriptBound} = ${s.kills.walk + s.kills.fetch} kills × 2 × ${concurrency}: requests in flight and answers not yet committed)`,
    `pages charged: ${s.pagesCharged} for ${PAGES} pages (bound: ${PAGES} + ${s.kills.walk} walk kills)`,
    `credits charged by the service: ${s.charged}; stored in the ledger: ${s.stored}`,
    `integrity_check: ${s.integrity}`,
    `ZIP (Python zipfile): ${s.zip.ok ? 'sound' : s.zip.problem}; ${s.zip.videos} videos, ${s.zip.transcripts} transcripts, complete: ${s.zip.complete}`,
    `temporary files left beside the ZIP: ${s.leftBehind}`,
    `time: walk ${s.seconds.walk} s, fetch ${s.seconds.fetch} s, ZIP ${s.seconds.zip} s, final run ${s.seconds.final} s; total ${elapsed(started)} s`,
    s.failures.length === 0 ? 'result: every check passed' : `result: FAILED\n  ${s.failures.join('\n  ')}`,
  ];
  console.log(lines.join('\n'));
}

/** Reads the ZIP with Python's zipfile: CRCs, the index rows, the manifest, transcripts.jsonl. */
function checkZip(path) {
  const script = `
import csv, io, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    index = list(csv.reader(io.StringIO(z.read("index.csv").decode("utf-8"), newline="")))
    manifest = json.loads(z.read("manifest.json"))
    lines = [l for l in z.read("transcripts.jsonl").decode("utf-8").split("\\n") if l]
    print(json.dumps({"bad": bad, "videos": len(index) - 1, "complete": manifest["job_finished"], "transcripts": len(lines)}))
`;
  const run = spawnSync('python3', ['-c', script, path], { encoding: 'utf8' });
  if (run.status !== 0)
    return { ok: false, problem: run.stderr.trim(), videos: 0, transcripts: 0, complete: false };
  const read = JSON.parse(run.stdout);
  return {
    ok: read.bad === null,
    problem: read.bad === null ? '' : `bad CRC in ${read.bad}`,
    videos: read.videos,
    transcripts: read.transcripts,
    complete: read.complete,
  };
}

/**
 * What the job's database records, read with a connection of our own once the first run has created
 * its tables: the pages bought, and whether every walk is done.
 */
function jobWatcher(dbFile) {
  let queries;
  const read = () => {
    queries ??= existsSync(dbFile) ? progressQuery(dbFile) : undefined;
    return queries?.progress.get() ?? { pages: 0, pending: 1 };
  };
  return {
    pagesBought: () => read().pages,
    walkDone: () => read().pending === 0,
    close: () => queries?.db.close(),
  };
}

function progressQuery(dbFile) {
  const db = new Database(dbFile, { readonly: true });
  try {
    const progress = db.prepare(
      "SELECT coalesce(sum(pages), 0) AS pages, count(*) FILTER (WHERE walk_status = 'pending') AS pending FROM sources",
    );
    return { db, progress };
  } catch {
    db.close(); // the file exists, its tables not yet
    return undefined;
  }
}

/** `.partial` and `.spool` files: what an export writes beside its target before the rename. */
function temporaryFiles(folder) {
  return readdirSync(folder).filter((name) => /\.(partial|spool)$/.test(name));
}

function digestOf(path) {
  return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : null;
}

/** A small seeded generator (mulberry32): the same kill points on every run with the same seed. */
function seededRandom(seedValue) {
  let state = seedValue >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` distinct whole numbers in [low, high], ascending. */
function pointsBetween(random, count, low, high) {
  if (high - low + 1 < count) throw new Error(`no room for ${count} kill points in [${low}, ${high}]`);
  const points = new Set();
  while (points.size < count) points.add(low + Math.floor(random() * (high - low + 1)));
  return [...points].sort((a, b) => a - b);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function elapsed(since) {
  return ((performance.now() - since) / 1000).toFixed(1);
}
