// The Library (issues 21 and 34): `npm run bench:library` (LIBRARY_TRANSCRIPTS=N for a smaller library).
//
// 1. The cost of indexing, chosen by measurement on 10,000 simulator-like transcripts: CPU per
//    transcript for a row per segment (migration 009's index) written in groups of 16 a commit (the
//    result writer's groups, as indexing inside the storing transaction did up to issue 21) and in
//    batches of 256 a commit (the preparation's, after the storing transaction).
// 2. A 100,000-transcript library stored directly in SQLite through the store's own storeTranscript
//    (segment counts as the simulator's, 5-80; 3-10 words a segment from a Zipf-distributed
//    vocabulary of 20,000 words; one transcript in ten in Japanese), then indexed as the first start
//    after an upgrade does (PreparationLoop.run): the one-time re-index, timed.
// 3. Query p95 (searchTranscripts' whole work: matches, totals, the first 100 hits) for words of
//    several frequencies, a phrase and a Japanese substring, and a word in most videos narrowed to a
//    channel; the first search of a new connection (which reads every transcript's facts); the
//    index's size against the database's.
// 4. CPU per video that indexing adds to a fetch: a real 1,000-video fetch from the simulator with
//    the engine's indexer and with one that does nothing, alternated, 3 times each.
// 5. Trends and the concordance (issue 47) over the same library, whose videos are dated as list
//    pages date them (six in ten exactly, three in ten in words such as "3 years ago", one in ten not
//    at all): 3 queries by month (libraryTrends' whole work) p95, and a concordance of a query of
//    about 10,000 hits to its first line and to its first 1,000.
// 6. The Trends view in Chromium over the same library (`scriptorium ui`, the built renderer): from
//    the Enter that adds a query to its chart in the page.
// (5 and 6 run before 4, while the library is open.)
/* global window, document, MutationObserver */
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleSources, machine, median, record, root, seededRandom, startSimulator } from './support.mjs';

const LIBRARY = Number(process.env.LIBRARY_TRANSCRIPTS ?? 100_000);
const QUERY_RUNS = 60;

const work = mkdtempSync(join(tmpdir(), 'scriptorium-bench-library-'));
const results = { machine: machine(), date: new Date().toISOString(), load: loadavg(), figures: {} };
console.log(
  `Library benchmark on ${results.machine}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

// The store, the Library and the engine, bundled from the sources for this run.
const core = await bundleSources('library', {
  'src/core/store/index.ts': ['openDatabase'],
  'src/core/store/transcripts.ts': ['storeTranscript'],
  'src/core/store/library-index.ts': ['indexNextTranscripts'],
  'src/core/engine/prepare-transcripts.ts': ['PreparationLoop'],
  'src/core/app/derivation.ts': ['EXPORT_DERIVATION'],
  'src/core/app/library.ts': ['searchLibrary'],
  'src/core/app/library-trends.ts': ['libraryTrends'],
  'src/core/app/library-concordance.ts': ['concordance'],
  'src/shared/search-text.ts': ['indexText'],
  'src/core/engine/index.ts': ['Engine'],
  'src/core/api/index.ts': ['createClient', 'realClock'],
  'src/shared/sources.ts': ['parseSource'],
});
const { default: BetterSqlite3 } = await import('better-sqlite3');

// ---------------------------------------------------------------------------------------------
// Simulator-like transcripts

// Seeded: the same library every run.
const random = seededRandom(21);
const int = (min, max) => min + Math.floor(random() * (max - min + 1));

const SYLLABLES = 'ka ri to ne mo sa lu vi de pa or an el is um ber gon tri fal quo zen mar ty lo ch'.split(
  ' ',
);
const english = Array.from({ length: 20_000 }, (_, i) => {
  let word = '';
  for (let n = 0, count = 2 + (i % 3); n < count; n++)
    word += SYLLABLES[(i * 7 + n * 13 + n * i) % SYLLABLES.length];
  return `${word}${i.toString(36)}`;
});
// Japanese words of 1 to 4 characters, half kanji (3,000 of the commonest block), half kana.
const japanese = Array.from({ length: 3_000 }, () => {
  let word = '';
  for (let n = int(1, 4); n > 0; n--)
    word +=
      random() < 0.5
        ? String.fromCodePoint(0x4e00 + Math.floor(random() * 3000))
        : String.fromCodePoint(0x3041 + Math.floor(random() * 83));
  return word;
});

/** Zipf (s = 1) over `words`: the cumulative weights, searched by bisection. */
function zipf(words) {
  const cumulative = [];
  let total = 0;
  for (let rank = 1; rank <= words.length; rank++) cumulative.push((total += 1 / rank));
  return () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return words[low];
  };
}
const pickEnglish = zipf(english);
const pickJapanese = zipf(japanese);

function transcriptBody(videoId, isJapanese) {
  const segments = int(5, 80);
  const length = int(45, 2400);
  const transcript = [];
  for (let i = 0; i < segments; i++) {
    const words = [];
    for (let n = int(3, 10); n > 0; n--) words.push(isJapanese ? pickJapanese() : pickEnglish());
    const text = isJapanese ? words.join('') : words.join(' ');
    transcript.push({ text, start: Math.round(((i * length) / segments) * 100) / 100, duration: 3.2 });
  }
  const language = isJapanese ? 'ja' : 'en';
  const metadata = { title: `Video ${videoId}`, author_name: `Channel ${videoId.length % 400}` };
  return {
    body: JSON.stringify({ video_id: videoId, language, transcript, metadata }),
    transcript,
    language,
  };
}

const videoIdOf = (n) => `v${n.toString(36).padStart(10, '0')}`;
let nextVideo = 0;
function newTranscript() {
  const videoId = videoIdOf(nextVideo++);
  const { body, transcript, language } = transcriptBody(videoId, nextVideo % 10 === 0);
  return {
    videoId,
    requestedLang: '',
    includeTimestamp: true,
    sendMetadata: true,
    language,
    title: `Video ${videoId}`,
    segmentCount: transcript.length,
    body,
    fetchedAt: '2026-11-27T00:00:00.000Z',
    segments: transcript,
  };
}

const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

// ---------------------------------------------------------------------------------------------
// 1. Indexing: in groups of 16 inside the storing transaction, or in batches of 256 after it

console.log('\n1. Indexing 10,000 transcripts (CPU µs per transcript; index MiB)');
const sample = Array.from({ length: 10_000 }, newTranscript);
const WAYS = {
  'groups of 16 a commit (as in the storing transaction, before)': 16,
  'batches of 256 a commit (after it, shipped)': 256,
};
const wayRuns = Object.fromEntries(Object.keys(WAYS).map((name) => [name, { cpu: [], size: [] }]));
for (let round = 0; round < 3; round++) {
  for (const [name, size] of Object.entries(WAYS)) {
    const file = join(work, `way-${round}.db`);
    const db = core.openDatabase(file);
    const store = db.transaction((batch) => batch.forEach((t) => core.storeTranscript(db, t)));
    for (let at = 0; at < sample.length; at += 1000) store(sample.slice(at, at + 1000));
    const texts = new Map(sample.map((t, i) => [i + 1, t.segments]));
    const before = process.cpuUsage();
    while (core.indexNextTranscripts(db, 'recent', size, (id) => texts.get(id) ?? []) > 0);
    wayRuns[name].cpu.push((cpuMs(before) * 1000) / sample.length);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = db
      .prepare("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'segment_index%'")
      .get();
    wayRuns[name].size.push(pages.bytes / 2 ** 20);
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
}
for (const [name, runs] of Object.entries(wayRuns)) {
  console.log(`  ${name}`);
  record(results, 'indexing', `${name}: CPU µs per transcript`, runs.cpu, 1);
  record(results, 'indexing', `${name}: index MiB`, runs.size, 2);
}

// ---------------------------------------------------------------------------------------------
// 2. The library

console.log(`\n2. Building a library of ${LIBRARY.toLocaleString('en-US')} transcripts`);
const dbFile = join(work, 'scriptorium.db');
const building = core.openDatabase(dbFile);
building.exec(`INSERT INTO jobs (key, status, options, sources, skipped, created_at, updated_at)
         VALUES ('bench', 'completed', '{"langs":["orig"],"includeTimestamp":true,"sendMetadata":true}', '[]', '[]', 't', 't');
         INSERT INTO sources (job_id, position, kind, source_id, input) VALUES (1, 0, 'playlist', 'PLbench', 'PLbench');`);
const item =
  building.prepare(`INSERT INTO items (job_id, source_id, position, number, video_id, title, status, transcript_id,
                           channel_title, published, listed_at, updated_at)
                    VALUES (1, 1, ?, ?, ?, ?, 'ok', ?, ?, ?, '2025-06-01T00:00:00.000Z', 't')`);
const LISTED_AT = Date.parse('2025-06-01T00:00:00Z');
/** As list pages date videos: a day (six in ten), an age in words (three in ten), nothing (one in ten). */
function publishedText() {
  const kind = random();
  if (kind < 0.1) return null;
  const daysAgo = int(1, 11 * 365);
  if (kind < 0.7) return new Date(LISTED_AT - daysAgo * 86_400_000).toISOString().slice(0, 10);
  if (daysAgo >= 365) return `${Math.floor(daysAgo / 365)} years ago`;
  if (daysAgo >= 30) return `${Math.floor(daysAgo / 30)} months ago`;
  return `${Math.floor(daysAgo / 7) || 1} weeks ago`;
}
const fill = building.transaction((count) => {
  for (let n = 0; n < count; n++) {
    const t = newTranscript();
    const id = core.storeTranscript(building, t);
    item.run(nextVideo, nextVideo, t.videoId, t.title, id, `Channel ${nextVideo % 400}`, publishedText());
  }
});
const buildStart = Date.now();
for (let done = 0; done < LIBRARY; done += 1000) fill(Math.min(1000, LIBRARY - done));
console.log(`    stored in ${((Date.now() - buildStart) / 1000).toFixed(0)} s`);
building.pragma('wal_checkpoint(TRUNCATE)');
building.close();

// As the first start after an upgrade finds it: every transcript stored, none indexed (migration 009
// sets the mark back to the start). Indexed as openApp does it, reading every body again.
{
  const upgraded = new BetterSqlite3(dbFile);
  upgraded.exec(`UPDATE transcript_index_backfill SET done_through = 0,
    until_id = (SELECT max(id) FROM transcripts), indexed_through = (SELECT max(id) FROM transcripts)`);
  upgraded.close();
}
const db = core.openDatabase(dbFile);
{
  // Indexing alone: deriving for export is bench/preparation.mjs's.
  const indexer = new core.PreparationLoop(db, undefined);
  let last;
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  await indexer.run({ stopped: () => false, onProgress: (progress) => (last = progress) });
  const wallS = (performance.now() - wallStart) / 1000;
  const cpuS = cpuMs(cpuStart) / 1000;
  console.log(`  re-indexed ${last?.done} of ${last?.total} transcripts after the upgrade`);
  record(results, 'reindex', 'one-time re-index after an upgrade: wall s', [wallS], 1);
  record(results, 'reindex', 'one-time re-index after an upgrade: CPU s', [cpuS], 1);
}
{
  // Derived for export too (issue 45), untimed: a library whose one-time preparation after the upgrade
  // is over, as the queries and the Trends view (figure 6) meet it once it has run; during it, the
  // worker's writes share the machine with them.
  const deriver = new core.PreparationLoop(db, core.EXPORT_DERIVATION);
  await deriver.run({ stopped: () => false });
  console.log('  derived for export (issue 45), untimed');
}
db.pragma('wal_checkpoint(TRUNCATE)');

// ---------------------------------------------------------------------------------------------
// 3. Queries

const count = (sql, ...args) =>
  db
    .prepare(sql)
    .pluck()
    .get(...args);
const indexBytes = count("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'segment_index%'");
const databaseBytes = statSync(dbFile).size;
console.log(
  `\n3. Index ${(indexBytes / 2 ** 20).toFixed(1)} MiB of a ${(databaseBytes / 2 ** 20).toFixed(1)} MiB database (${((100 * indexBytes) / databaseBytes).toFixed(1)} %)`,
);
results.sizes = { indexBytes, databaseBytes };

// A phrase as people search one: two words next to each other in a stored segment (of middling
// frequency), and words of several frequencies; each query's matches are printed with its times.
const phraseSource = core.searchLibrary(db, { query: english[299] }, 1).groups[0]?.hits[0]?.snippet;
const phraseWords = (phraseSource ?? [])
  .map((part) => part.text)
  .join('')
  .split(' ');
const at = Math.max(0, phraseWords.indexOf(english[299]));
const phrase = `"${phraseWords.slice(at, at + 2).join(' ')}"`;
const japaneseQuery = japanese.find((word, rank) => rank >= 1000 && word.length >= 3).slice(0, 3);
const QUERIES = {
  [`word (${english[9999]}, Zipf rank 10,000)`]: [english[9999], QUERY_RUNS],
  [`word (${english[1999]}, Zipf rank 2,000)`]: [english[1999], QUERY_RUNS],
  [`phrase (${phrase})`]: [phrase, QUERY_RUNS],
  [`Japanese substring (${japaneseQuery}, inside a word of Zipf rank ~1,000)`]: [japaneseQuery, QUERY_RUNS],
  [`frequent word (${english[9]}, rank 10)`]: [english[9], QUERY_RUNS],
  [`frequent word (${english[9]}) narrowed to --channel "Channel 7"`]: [
    english[9],
    20,
    { channel: 'Channel 7' },
  ],
};
{
  // A new connection knows no transcript's facts yet: its first search reads them all.
  const fresh = core.openDatabase(dbFile);
  const start = performance.now();
  const found = core.searchLibrary(fresh, { query: english[1999] }, 100);
  const ms = performance.now() - start;
  fresh.close();
  console.log(`  the first search of a new connection (${english[1999]}, ${found.videos} videos)`);
  record(results, 'queries', 'first search of a connection: ms', [ms], 1);
}
for (const [label, [query, runs, narrowing]] of Object.entries(QUERIES)) {
  const times = [];
  let found;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    found = core.searchLibrary(db, { query, ...narrowing }, 100);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const p95 = times[Math.ceil(0.95 * times.length) - 1];
  const share = ((100 * found.videos) / LIBRARY).toFixed(2);
  console.log(`  ${label}: ${found.videos} videos (${share} %), ${found.hits} hits`);
  record(results, 'queries', `${label}: p95 ms`, [p95], 1);
  record(results, 'queries', `${label}: median ms`, [times[Math.floor(times.length / 2)]], 1);
}

// ---------------------------------------------------------------------------------------------
// 5. Trends and the concordance

console.log('\n5. Trends and the concordance');
{
  const p95 = (times) => [...times].sort((a, b) => a - b)[Math.ceil(0.95 * times.length) - 1];
  const trendQueries = [english[1999], english[299], english[9]];
  const fresh = core.openDatabase(dbFile);
  let start = performance.now();
  core.libraryTrends(fresh, trendRequest(trendQueries, 'videos'), String);
  record(
    results,
    'trends',
    'first trend of a connection (3 queries by month): ms',
    [performance.now() - start],
    1,
  );
  fresh.close();
  for (const measure of ['videos', 'share', 'airtime']) {
    const times = [];
    let trend;
    for (let run = 0; run < 20; run++) {
      start = performance.now();
      trend = core.libraryTrends(db, trendRequest(trendQueries, measure), String);
      times.push(performance.now() - start);
    }
    console.log(`  ${measure}: ${trend.periods.length} months, ${trendQueries.join(', ')}`);
    record(results, 'trends', `3 queries by month, ${measure}: p95 ms`, [p95(times)], 1);
  }
  // A query of about 10,000 hits: the word whose hits come nearest, among a few ranks.
  const candidates = [99, 149, 199, 299, 399].map((rank) => ({
    word: english[rank],
    hits: core.searchLibrary(db, { query: english[rank] }, 1).hits,
  }));
  const kwic = candidates.reduce((best, each) =>
    Math.abs(each.hits - 10_000) < Math.abs(best.hits - 10_000) ? each : best,
  );
  for (const sort of ['relevance', 'date', 'left']) {
    const first = [];
    const thousand = [];
    for (let run = 0; run < 5; run++) {
      start = performance.now();
      const { rows } = core.concordance(db, { query: kwic.word }, { context: 8, sort, limit: 1000 });
      let count = 0;
      for await (const _row of rows) if (++count === 1) first.push(performance.now() - start);
      thousand.push(performance.now() - start);
    }
    console.log(`  concordance of ${kwic.word} (${kwic.hits} hits), sorted by ${sort}`);
    record(
      results,
      'concordance',
      `${kwic.hits} hits by ${sort}: to the first line, median ms`,
      [median(first)],
      1,
    );
    record(
      results,
      'concordance',
      `${kwic.hits} hits by ${sort}: to the first 1,000, median ms`,
      [median(thousand)],
      1,
    );
  }
}

function trendRequest(queries, measure) {
  return {
    queries,
    by: 'month',
    per: null,
    measure,
    jobId: null,
    language: null,
    channel: null,
    publishedAfter: null,
    publishedBefore: null,
    limit: null,
    withCsv: false,
  };
}

// ---------------------------------------------------------------------------------------------
// 6. The Trends view: from the Enter that adds a query to its chart

db.close();
console.log('\n6. The Trends view in Chromium: Enter to the chart in the page');
{
  const { chromium } = await import('@playwright/test');
  const ui = await startUi(work);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(`${ui.url}#/library/trends`);
    const box = page.getByRole('searchbox', { name: 'Add a query' });
    await box.waitFor();
    const times = [];
    for (let run = 0; run < 6; run++) {
      const word = english[1999 + run];
      await box.fill(word);
      await page.evaluate((query) => {
        window.benchChart = new Promise((resolve) => {
          let enterAt = null;
          document.addEventListener(
            'keydown',
            (event) => event.key === 'Enter' && (enterAt = performance.now()),
            {
              capture: true,
              once: true,
            },
          );
          const observer = new MutationObserver(() => {
            const chart = document.querySelector('.trend-chart svg[role="img"]');
            if (enterAt === null || chart === null || !chart.getAttribute('aria-label')?.includes(query))
              return;
            observer.disconnect();
            resolve(performance.now() - enterAt);
          });
          observer.observe(document.body, { childList: true, subtree: true, attributes: true });
        });
      }, word);
      await box.press('Enter');
      times.push(await page.evaluate(() => window.benchChart));
      await page.getByRole('button', { name: `Remove ${word}` }).click();
    }
    console.log(`  ${times.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    // The first is the app's first trend (it reads every video's date): apart.
    record(results, 'chart', 'Enter to the chart, first of the app: ms', [times[0]], 1);
    record(results, 'chart', 'Enter to the chart, later ones: median ms', [median(times.slice(1))], 1);
  } finally {
    await browser.close();
    await ui.stop();
  }
}

/** `scriptorium ui --no-open --port 0` on the data folder (nothing is sent: no key is needed). */
async function startUi(dataDir) {
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    [join(root, 'bin', 'scriptorium'), 'ui', '--no-open', '--port', '0', '--data-dir', dataDir],
    {
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  for await (const chunk of child.stdout) {
    output += chunk;
    const url = /Scriptorium is open at (\S+)/.exec(output)?.[1];
    if (url !== undefined) {
      child.stdout.resume();
      return {
        url,
        stop: () => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM'))),
      };
    }
  }
  throw new Error(`scriptorium ui printed no address:\n${output}`);
}

// ---------------------------------------------------------------------------------------------
// 4. CPU per video indexing adds to a fetch

console.log(
  '\n4. A real fetch (engine, 1,000 videos from the simulator, concurrency 16), with and without indexing, alternated',
);
// Without: the same engine with an indexer that does nothing, so that the fetch runs the very same
// code and only indexing (reading the texts, cleaning, folding, FTS5) is left out.
const sim = await startSimulator();
const fetchRuns = { with: [], without: [] };
try {
  const client = core.createClient({ baseUrl: sim.url, apiKey: sim.key, userAgent: 'Scriptorium/bench' });
  const engines = {};
  for (const indexed of [true, false]) {
    const fetchDb = core.openDatabase(join(work, `fetch-${indexed}.db`));
    engines[indexed] = new core.Engine({ db: fetchDb, client, clock: core.realClock });
    if (!indexed) {
      engines[indexed].preparation.stored = () => undefined;
      engines[indexed].preparation.drain = async () => undefined;
    }
  }
  const job = (engine, list) =>
    engine.findOrCreateJob({
      sources: [core.parseSource(list).source],
      skipped: [],
      options: { langs: ['orig'], includeTimestamp: true, sendMetadata: true },
    }).job.id;
  for (const indexed of [true, false])
    await engines[indexed].run(job(engines[indexed], `PLbenchLibraryWarmUp${indexed}_n1000`), {
      concurrency: 16,
    });
  for (let round = 0; round < 3; round++) {
    for (const indexed of round % 2 === 0 ? [true, false] : [false, true]) {
      const engine = engines[indexed];
      const before = process.cpuUsage();
      const outcome = await engine.run(job(engine, `PLbenchLibraryFetch${round}${indexed}_n1000`), {
        concurrency: 16,
      });
      if (outcome.status !== 'completed') throw new Error(`the fetch ended ${outcome.status}`);
      fetchRuns[indexed ? 'with' : 'without'].push(cpuMs(before) / 1000);
    }
  }
  await client.close();
} finally {
  await sim.stop();
}
record(results, 'fetch', 'a fetch with the index: CPU ms per video', fetchRuns.with);
record(results, 'fetch', 'a fetch without: CPU ms per video', fetchRuns.without);
const least = (values) => Math.min(...values);
const share = (a, b) => (100 * (a - b)) / b;
console.log(
  `    => the index adds ${share(least(fetchRuns.with), least(fetchRuns.without)).toFixed(1)} % (min against min) / ${share(median(fetchRuns.with), median(fetchRuns.without)).toFixed(1)} % (median against median) to a fetch's CPU per video`,
);
console.log(
  `\nload after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${cpus().length} cores`,
);
mkdirSync(join(root, 'bench', '.work'), { recursive: true });
writeFileSync(join(root, 'bench', '.work', 'library.json'), `${JSON.stringify(results, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
