// The Library (issue 21): `npm run bench:library`.
//
// 1. The index's shape, chosen by measurement on 10,000 simulator-like transcripts: CPU per
//    transcript to index and index size, for unicode61 with pairs for unspaced runs, contentless,
//    with a row per transcript (migration 007) and with a row per segment without column sizes,
//    merged 4 (FTS5's default) or 8 segments a level (migration 008, shipped). The trigram tokenizer, measured before (bench/RESULTS.md), is left out.
// 2. A 100,000-transcript library built directly in SQLite through the store's own storeTranscript
//    (so indexed as a fetch indexes): segment counts as the simulator's (5-80), 3-10 words a segment
//    from a Zipf-distributed vocabulary of 20,000 words, one transcript in ten in Japanese.
// 3. Query p95 (searchTranscripts' whole work: matches, totals, the first 100 hits) for words of
//    several frequencies, a phrase and a Japanese substring, and a word in most videos narrowed to a
//    channel; the first search of a new connection (which reads every transcript's facts); the
//    index's size against the database's.
// 4. CPU per video that indexing adds to a fetch: a real 1,000-video fetch from the simulator with
//    and without the index, alternated, 3 times each; and storing 1,000 of this benchmark's
//    transcripts (a larger vocabulary than the simulator's 16 words a language) in groups of 16, as
//    the result writer does, with and without indexing, alternated, 5 times each.
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleSources, machine, record, root, seededRandom, startSimulator } from './support.mjs';

const LIBRARY = Number(process.env.LIBRARY_TRANSCRIPTS ?? 100_000);
const QUERY_RUNS = 60;
const ROUNDS = 5;

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
  'src/core/app/library.ts': ['searchLibrary'],
  'src/shared/search-text.ts': ['indexText'],
  'src/core/engine/index.ts': ['Engine'],
  'src/core/api/index.ts': ['createClient'],
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
    segmentTexts: transcript.map((segment) => segment.text),
  };
}

const cpuMs = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

// ---------------------------------------------------------------------------------------------
// 1. The index's shape

console.log('\n1. Index shapes over 10,000 transcripts (CPU µs per transcript to index; index MiB)');
const sample = Array.from({ length: 10_000 }, newTranscript);
const TOKENIZER = `tokenize="unicode61 remove_diacritics 2 categories 'L* N* Co M*'"`;
const SHAPES = {
  'row per transcript (007)': {
    table: `fts5(text, content='', ${TOKENIZER})`,
    rows: (t, id) => [[id, core.indexText(t.segmentTexts.join('\n'))]],
  },
  'row per segment, columnsize=0, automerge 4 (FTS5 default)': {
    table: `fts5(text, content='', columnsize=0, ${TOKENIZER})`,
    rows: (t, id) => t.segmentTexts.map((text, i) => [id * 2 ** 20 + i, core.indexText(text)]),
  },
  'row per segment, columnsize=0, automerge 8 (008, shipped)': {
    table: `fts5(text, content='', columnsize=0, ${TOKENIZER})`,
    setup: "INSERT INTO x (x, rank) VALUES ('automerge', 8)",
    rows: (t, id) => t.segmentTexts.map((text, i) => [id * 2 ** 20 + i, core.indexText(text)]),
  },
};
const shapeRuns = Object.fromEntries(Object.keys(SHAPES).map((name) => [name, { cpu: [], size: [] }]));
for (let round = 0; round < 3; round++) {
  for (const [name, shape] of Object.entries(SHAPES)) {
    const file = join(work, `shape-${round}.db`);
    const db = new BetterSqlite3(file);
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE VIRTUAL TABLE x USING ${shape.table}`);
    if (shape.setup) db.exec(shape.setup);
    const insert = db.prepare('INSERT INTO x (rowid, text) VALUES (?, ?)');
    const group = db.transaction((batch, offset) => {
      batch.forEach((t, i) => {
        for (const [rowid, text] of shape.rows(t, offset + i + 1)) insert.run(rowid, text);
      });
    });
    const before = process.cpuUsage();
    for (let at = 0; at < sample.length; at += 16) group(sample.slice(at, at + 16), at);
    shapeRuns[name].cpu.push((cpuMs(before) * 1000) / sample.length);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = db.prepare("SELECT sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'x%'").get();
    shapeRuns[name].size.push(pages.bytes / 2 ** 20);
    db.close();
    rmSync(file, { force: true });
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
  }
}
for (const [name, runs] of Object.entries(shapeRuns)) {
  console.log(`  ${name}`);
  record(results, 'shapes', `${name}: CPU µs per transcript`, runs.cpu, 1);
  record(results, 'shapes', `${name}: index MiB`, runs.size, 2);
}

// ---------------------------------------------------------------------------------------------
// 2. The library

console.log(`\n2. Building a library of ${LIBRARY.toLocaleString('en-US')} transcripts`);
const dbFile = join(work, 'scriptorium.db');
const db = core.openDatabase(dbFile);
db.exec(`INSERT INTO jobs (key, status, options, sources, skipped, created_at, updated_at)
         VALUES ('bench', 'completed', '{}', '[]', '[]', 't', 't');
         INSERT INTO sources (job_id, position, kind, source_id, input) VALUES (1, 0, 'playlist', 'PLbench', 'PLbench');`);
const item =
  db.prepare(`INSERT INTO items (job_id, source_id, position, number, video_id, title, status, transcript_id,
                           channel_title, updated_at) VALUES (1, 1, ?, ?, ?, ?, 'ok', ?, ?, 't')`);
const fill = db.transaction((count) => {
  for (let n = 0; n < count; n++) {
    const t = newTranscript();
    const id = core.storeTranscript(db, t);
    item.run(nextVideo, nextVideo, t.videoId, t.title, id, `Channel ${nextVideo % 400}`);
  }
});
const buildStart = Date.now();
for (let done = 0; done < LIBRARY; done += 1000) fill(Math.min(1000, LIBRARY - done));
console.log(`    built in ${((Date.now() - buildStart) / 1000).toFixed(0)} s`);
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
// 4. CPU per video indexing adds to a fetch

console.log('\n4. Storing 1,000 transcripts in groups of 16, with and without indexing, alternated');
const raw =
  db.prepare(`INSERT INTO transcripts (video_id, requested_lang, include_timestamp, send_metadata, language,
                          title, segment_count, body, fetched_at) VALUES (?, '', 1, 1, ?, ?, ?, ?, ?)`);
const storeGroup = db.transaction((batch, indexed) => {
  for (const t of batch) {
    if (indexed) core.storeTranscript(db, t);
    else raw.run(t.videoId, t.language, t.title, t.segmentCount, t.body, t.fetchedAt);
  }
});
const storing = { with: [], without: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const indexed of round % 2 === 0 ? [true, false] : [false, true]) {
    const batch = Array.from({ length: 1000 }, newTranscript);
    const before = process.cpuUsage();
    for (let at = 0; at < batch.length; at += 16) storeGroup.immediate(batch.slice(at, at + 16), indexed);
    storing[indexed ? 'with' : 'without'].push(cpuMs(before));
  }
}
record(
  results,
  'store',
  'storing with indexing: CPU ms per video',
  storing.with.map((ms) => ms / 1000),
);
record(
  results,
  'store',
  'storing without: CPU ms per video',
  storing.without.map((ms) => ms / 1000),
);
const added = storing.with.map((ms, i) => (ms - storing.without[i]) / 1000);
record(results, 'store', 'indexing adds: CPU ms per video', added);
db.close();

console.log(
  '\n   A real fetch (engine, 1,000 videos from the simulator, concurrency 16), with and without the index, alternated',
);
// Without: the same database but for the index, a view whose inserts do nothing, so that the fetch
// runs the very same code and only FTS5's work is left out.
const sim = await startSimulator();
const fetchRuns = { with: [], without: [] };
try {
  const client = core.createClient({ baseUrl: sim.url, apiKey: sim.key, userAgent: 'Scriptorium/bench' });
  const engines = {};
  for (const indexed of [true, false]) {
    const fetchDb = core.openDatabase(join(work, `fetch-${indexed}.db`));
    if (!indexed)
      fetchDb.exec(`DROP TABLE segment_index;
        CREATE VIEW segment_index (rowid, text, segment_index) AS SELECT NULL, NULL, NULL WHERE 0;
        CREATE TRIGGER segment_index_nothing INSTEAD OF INSERT ON segment_index BEGIN SELECT 1; END;`);
    engines[indexed] = new core.Engine({
      db: fetchDb,
      client,
      clock: { now: Date.now, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) },
    });
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
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const share = (a, b) => (100 * (a - b)) / b;
console.log(
  `    => the index adds ${share(least(fetchRuns.with), least(fetchRuns.without)).toFixed(1)} % (min against min) / ${share(median(fetchRuns.with), median(fetchRuns.without)).toFixed(1)} % (median against median) to a fetch's CPU per video`,
);
console.log(
  `    => storing a Zipf-vocabulary transcript adds ${least(added).toFixed(3)} / ${median(added).toFixed(3)} ms (min / median): ${((100 * least(added)) / least(fetchRuns.without)).toFixed(1)} % / ${((100 * median(added)) / median(fetchRuns.without)).toFixed(1)} % of a fetch without the index`,
);
console.log(
  `\nload after: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${cpus().length} cores`,
);
mkdirSync(join(root, 'bench', '.work'), { recursive: true });
writeFileSync(join(root, 'bench', '.work', 'library.json'), `${JSON.stringify(results, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
