import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localApi, memoryKeyStore, openApp, type ScriptoriumApp } from '../../../src/core/app';
import type { JobDraft, ScriptoriumApi, TranscriptReading } from '../../../src/shared/contract';
import { ContractError } from '../../../src/shared/contract-error';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { readZip, tempDir } from '../../support/cli';

// The Library through the real dispatch, over transcripts bought from the real simulator: what a
// user searches finds the segments that say it, and nothing is sent or spent for searching.

let sim: RunningSimulator;
let dataDir: string;
let app: ScriptoriumApp;
let api: ScriptoriumApi;
/** Every stored transcript, read whole. */
let library: TranscriptReading[];

function draft(source: string, languages: string, overrides: Partial<JobDraft> = {}): JobDraft {
  return {
    sources: [{ where: 'line 1', text: source }],
    languages,
    includeTimestamp: true,
    sendMetadata: true,
    maxVideos: null,
    budget: null,
    concurrency: 4,
    formats: ['txt', 'json'],
    ...overrides,
  };
}

async function bought(source: string, languages: string, overrides: Partial<JobDraft> = {}): Promise<number> {
  const { job } = await api.createJob({ draft: draft(source, languages, overrides), start: false });
  expect((await api.runJob({ jobId: job.id })).outcome.status).toBe('completed');
  return job.id;
}

async function transcriptsOf(jobId: number): Promise<TranscriptReading[]> {
  const { rows } = await api.listVideos({ jobId, offset: 0, limit: 500, status: 'all', search: '' });
  const ids = rows.flatMap((row) => (row.transcriptId === null ? [] : [row.transcriptId]));
  return Promise.all(ids.map((transcriptId) => api.readTranscript({ transcriptId, query: null })));
}

/** Segments whose text holds `pattern`, counted independently of the Library's own matching. */
function segmentsMatching(pattern: RegExp, among = library) {
  return among.flatMap((t) =>
    t.segments.map((s, i) => ({ t, i, s })).filter(({ s }) => pattern.test(s.text)),
  );
}

async function refusal(promise: Promise<unknown>): Promise<ContractError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ContractError)) throw new Error(`expected a ContractError, got ${String(error)}`);
  return error;
}

let englishJob: number;
let japaneseJob: number;
let frenchJob: number;

beforeAll(async () => {
  sim = await startSimulator({ credits: 10_000 });
  dataDir = tempDir();
  app = openApp({
    dataDir,
    keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
    serviceUrl: sim.url,
  });
  api = localApi(app);
  englishJob = await bought('PLlibraryEnglish_n25', 'en');
  japaneseJob = await bought('PLlibraryJapanese_n25', 'ja');
  frenchJob = await bought('PLlibraryFrench_n25', 'fr', { includeTimestamp: false });
  library = [
    ...(await transcriptsOf(englishJob)),
    ...(await transcriptsOf(japaneseJob)),
    ...(await transcriptsOf(frenchJob)),
  ];
});

afterAll(async () => {
  await app.close();
  await sim.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('searchTranscripts', () => {
  it('finds every segment that says a word, whatever its case, grouped by video, and sends nothing', async () => {
    const requests = sim.admin.requests().length;
    const expected = segmentsMatching(/(^|[^\p{L}\p{N}])river([^\p{L}\p{N}]|$)/iu);
    expect(expected.length).toBeGreaterThan(10);
    const found = await api.searchTranscripts({ query: 'RIVER', limit: 1000 });
    expect(found.hits).toBe(expected.length);
    expect(found.videos).toBe(new Set(expected.map(({ t }) => t.transcriptId)).size);
    const listed = found.groups.flatMap((g) => g.hits.map((h) => `${g.transcriptId}:${h.segment}`));
    expect(listed.sort()).toEqual(expected.map(({ t, i }) => `${t.transcriptId}:${i}`).sort());
    for (const group of found.groups) {
      expect(group.url).toBe(`https://www.youtube.com/watch?v=${group.videoId}`);
      const starts = group.hits.map((hit) => hit.start ?? 0);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      for (const hit of group.hits) {
        expect(hit.url).toBe(`${group.url}&t=${Math.floor(hit.start ?? 0)}s`);
        expect(hit.snippet.filter((part) => part.match).map((part) => part.text.toLowerCase())).toContain(
          'river',
        );
      }
    }
    expect(sim.admin.requests().length).toBe(requests);
  });

  it('ranks the video that says the word most first, and lists at most `limit` hits while counting all', async () => {
    const found = await api.searchTranscripts({ query: 'river', limit: 3 });
    expect(found.groups.reduce((sum, g) => sum + g.hits.length, 0)).toBe(3);
    expect(found.hits).toBeGreaterThan(3);
    const all = await api.searchTranscripts({ query: 'river', limit: 1000 });
    expect(found.groups[0]?.transcriptId).toBe(all.groups[0]?.transcriptId);
  });

  it('counts every hit of a word said in most videos exactly, listing only the first', async () => {
    const expected = segmentsMatching(/(^|[^\p{L}\p{N}])the([^\p{L}\p{N}]|$)/iu);
    const saying = new Set(expected.map(({ t }) => t.transcriptId));
    const english = library.filter((t) => t.language === 'en');
    expect(saying.size).toBeGreaterThan(english.length / 2);
    const found = await api.searchTranscripts({ query: 'the', limit: 1 });
    expect(found).toMatchObject({ hits: expected.length, videos: saying.size });
    expect(found.groups).toHaveLength(1);
    expect(found.groups[0]?.hits).toHaveLength(1);
    // The same with every hit listed, and the same first.
    const all = await api.searchTranscripts({ query: 'the', limit: 1000 });
    expect(all.groups.flatMap((g) => g.hits)).toHaveLength(expected.length);
    expect(all.groups[0]?.hits[0]).toEqual(found.groups[0]?.hits[0]);
  });

  it('ranks a video below none that says the words in more segments while being no longer', async () => {
    const found = await api.searchTranscripts({ query: 'the OR le OR 川', limit: 1000 });
    expect(found.groups.length).toBeGreaterThan(15);
    const lengthOf = new Map(library.map((t) => [t.transcriptId, t.segments.length]));
    const ranked = found.groups.map((g) => ({
      hits: g.hits.length,
      length: lengthOf.get(g.transcriptId) ?? 0,
    }));
    ranked.forEach((above, i) =>
      ranked.slice(i + 1).forEach((below) => {
        const better =
          below.hits >= above.hits &&
          below.length <= above.length &&
          (below.hits > above.hits || below.length < above.length);
        expect(better, JSON.stringify({ above, below })).toBe(false);
      }),
    );
  });

  it('matches a phrase only in order, a prefix, either of two words, and leaves out excluded words', async () => {
    const phrase = segmentsMatching(/(^|[^\p{L}])small engine([^\p{L}]|$)/iu);
    expect((await api.searchTranscripts({ query: '"small engine"', limit: 1000 })).hits).toBe(phrase.length);
    const prefix = segmentsMatching(/(^|[^\p{L}])quest/iu);
    expect((await api.searchTranscripts({ query: 'quest*', limit: 1000 })).hits).toBe(prefix.length);
    const either = segmentsMatching(/(^|[^\p{L}])(river|engine)([^\p{L}]|$)/iu);
    expect((await api.searchTranscripts({ query: 'river OR engine', limit: 1000 })).hits).toBe(either.length);
    const riverNotLight = segmentsMatching(/(^|[^\p{L}])river([^\p{L}]|$)/iu).filter(
      ({ s }) => !/(^|[^\p{L}])light([^\p{L}]|$)/iu.test(s.text),
    );
    expect((await api.searchTranscripts({ query: 'river -light', limit: 1000 })).hits).toBe(
      riverNotLight.length,
    );
  });

  it('ignores diacritics: "lumiere" and "LUMIÈRE" find "lumière"', async () => {
    const expected = segmentsMatching(/lumière/iu);
    expect(expected.length).toBeGreaterThan(0);
    for (const query of ['lumiere', 'LUMIÈRE', 'lumière']) {
      const found = await api.searchTranscripts({ query, limit: 1000 });
      expect(found.hits).toBe(expected.length);
      expect(found.groups[0]?.hits[0]?.snippet.find((part) => part.match)?.text.toLowerCase()).toBe(
        'lumière',
      );
    }
    // Transcripts bought without times have hits without a time; their links open the video's start.
    const untimed = (await api.searchTranscripts({ query: 'lumiere', jobId: frenchJob, limit: 1 })).groups[0];
    expect(untimed?.hits[0]?.start).toBeNull();
    expect(untimed?.hits[0]?.url).toBe(untimed?.url);
  });

  it('finds Japanese text as a substring, one character or several', async () => {
    const japanese = await transcriptsOf(japaneseJob);
    for (const text of ['静か', '毎朝', '川', '物語', 'エンジンを']) {
      const expected = segmentsMatching(new RegExp(text, 'u'), japanese);
      expect(expected.length, text).toBeGreaterThan(0);
      const found = await api.searchTranscripts({ query: text, limit: 1000 });
      expect(found.hits, text).toBe(segmentsMatching(new RegExp(text, 'u')).length);
      const marked = found.groups.flatMap((g) => g.hits.flatMap((h) => h.snippet.filter((p) => p.match)));
      // Marked exactly: the text itself (twice over where it says it twice in a row).
      expect(marked.length, text).toBeGreaterThan(0);
      for (const part of marked) expect(part.text.replaceAll(text, ''), text).toBe('');
    }
  });

  it('narrows to a job, a language and a channel', async () => {
    const inJob = await api.searchTranscripts({ query: 'river', jobId: englishJob, limit: 1000 });
    const english = library.filter((t) => t.transcriptId > 0 && t.language === 'en');
    expect(inJob.groups.every((g) => english.some((t) => t.transcriptId === g.transcriptId))).toBe(true);
    const inFrench = await api.searchTranscripts({ query: 'river', language: 'FR', limit: 1000 });
    expect(inFrench.groups.every((g) => g.language === 'fr')).toBe(true);
    const channel = inJob.groups[0]?.channelTitle ?? '';
    expect(channel).not.toBe('');
    const inChannel = await api.searchTranscripts({
      query: 'river',
      channel: channel.toUpperCase(),
      limit: 1000,
    });
    expect(inChannel.groups.length).toBeGreaterThan(0);
    expect(inChannel.groups.every((g) => g.channelTitle === channel)).toBe(true);
  });

  it("narrows to a channel that only a transcript's own metadata names (a video bought alone)", async () => {
    const alone = await bought('dQw4w9WgXcQ', 'orig');
    const [transcript] = await transcriptsOf(alone);
    const channel = transcript?.channelTitle ?? '';
    expect(channel).not.toBe('');
    const word = transcript?.segments[0]?.text.match(/\p{L}+/u)?.[0] ?? '';
    const found = await api.searchTranscripts({ query: word, channel: channel.toLowerCase(), limit: 1000 });
    expect(found.groups.map((g) => g.transcriptId)).toContain(transcript?.transcriptId);
    expect(found.groups.every((g) => g.channelTitle === channel)).toBe(true);
  });

  it('refuses what it cannot read with a plain message, sending nothing', async () => {
    const requests = sim.admin.requests().length;
    for (const [query, message] of [
      ['"unclosed', /quote is not closed/],
      ['*', /A \* stands for the end of a word/],
      ['-river -light', /excluded words alone/],
      ['a'.repeat(10_000), /at most 500 characters/],
      ['river\u0007', /control characters/],
      ['OR river', /OR goes between two words/],
      ['', /Type something to search for/],
    ] as const) {
      const error = await refusal(api.searchTranscripts({ query, limit: 10 }));
      expect(error.code, query).toBe('invalid_input');
      expect(error.message, query).toMatch(message);
      expect(error.message).not.toMatch(/fts5|syntax error|SQLITE/i);
    }
    // FTS5's own syntax is read as words.
    for (const query of ['NEAR(river', 'text:river', 'river AND', 'NOT river', '^river']) {
      await expect(api.searchTranscripts({ query, limit: 10 }), query).resolves.toBeDefined();
    }
    expect(sim.admin.requests().length).toBe(requests);
  });
});

describe('readTranscript', () => {
  it('gives the whole transcript with the segments the query matches', async () => {
    const found = await api.searchTranscripts({ query: 'river', limit: 1000 });
    const group = found.groups[0];
    if (group === undefined) throw new Error('no match');
    const reading = await api.readTranscript({ transcriptId: group.transcriptId, query: 'river' });
    expect(reading.hits).toEqual(group.hits.map((hit) => hit.segment));
    expect(reading).toMatchObject({ videoId: group.videoId, title: group.title, language: group.language });
    expect(reading.segments.length).toBeGreaterThan(reading.hits.length);
    expect((await api.readTranscript({ transcriptId: group.transcriptId, query: null })).hits).toEqual([]);
    expect((await refusal(api.readTranscript({ transcriptId: 999_999, query: null }))).code).toBe(
      'invalid_input',
    );
  });
});

describe('exportSearchResults and createJobFromSearch', () => {
  it('writes every hit as CSV', async () => {
    const found = await api.searchTranscripts({ query: 'engine', limit: 1000 });
    const path = join(dataDir, 'hits.csv');
    const written = await api.exportSearchResults({ query: 'engine', destination: path });
    expect(written).toMatchObject({ path, hits: found.hits, fileName: 'search-results.csv' });
    const lines = readCsv(readFileSync(path, 'utf8'));
    expect(lines[0]).toEqual([
      'video_id',
      'transcript_id',
      'language',
      'title',
      'time',
      'start_seconds',
      'url',
      'snippet',
    ]);
    expect(lines).toHaveLength(found.hits + 1);
    const first = found.groups[0];
    const hit = first?.hits[0];
    expect(lines[1]).toEqual([
      first?.videoId,
      String(first?.transcriptId),
      first?.language,
      first?.title,
      expect.stringMatching(/^(\d+:)?\d\d:\d\d$/),
      String(hit?.start),
      hit?.url,
      hit?.snippet.map((part) => part.text).join(''),
    ]);
    // Without a destination it is kept for download.
    const offered = await api.exportSearchResults({ query: 'engine', destination: null });
    expect(offered.path).toBeNull();
    expect(readFileSync(app.download(offered.exportId)?.path ?? '', 'utf8')).toBe(readFileSync(path, 'utf8'));
  });

  it('makes a job of the matching videos from the cache: no request, no credit, exported as a ZIP', async () => {
    const requests = sim.admin.requests().length;
    const charged = sim.admin.ledger().length;
    const credits = (await api.creditStatus({})).total;
    const found = await api.searchTranscripts({ query: 'river', jobId: englishJob, limit: 1000 });
    const { job, videos } = await api.createJobFromSearch({ query: 'river', jobId: englishJob });
    expect(videos).toBe(found.videos);
    expect(job).toMatchObject({ status: 'completed', creditsSpent: 0 });
    expect(job.counts).toMatchObject({ total: videos, ok: videos });
    expect(sim.admin.requests().length).toBe(requests);
    expect((await api.creditStatus({})).total).toBe(credits);
    expect(sim.admin.ledger()).toHaveLength(charged);

    const path = join(dataDir, 'from-search.zip');
    await api.exportJob({ jobId: job.id, formats: ['txt'], destination: path });
    const zip = await readZip(path);
    const exported = zip.index.slice(1).map((row) => row[0]);
    expect(exported.sort()).toEqual(found.groups.map((g) => g.videoId).sort());
    expect(sim.admin.requests().length).toBe(requests);
  });
});

describe('createJobFromSearch over transcripts bought in two ways', () => {
  it('holds every video with a matching transcript bought the way most were, whichever ranks first', async () => {
    // A data folder of its own, where some videos are bought without times first and then the whole
    // playlist with times: those videos have a matching transcript each way, and on equal relevance
    // the older one, without times, can come first.
    const dir = tempDir();
    const other = openApp({
      dataDir: dir,
      keys: memoryKeyStore({ key: sim.key, serviceUrl: sim.url }),
      serviceUrl: sim.url,
    });
    const otherApi = localApi(other);
    try {
      for (const overrides of [{ includeTimestamp: false, maxVideos: 10 }, {}]) {
        const { job } = await otherApi.createJob({
          draft: draft('PLlibraryEnglish_n25', 'en', overrides),
          start: false,
        });
        expect((await otherApi.runJob({ jobId: job.id })).outcome.status).toBe('completed');
        // Searched between the two, so that the second search must learn the newer transcripts.
        expect((await otherApi.searchTranscripts({ query: 'river', limit: 1 })).videos).toBeGreaterThan(0);
      }
      const found = await otherApi.searchTranscripts({ query: 'river', limit: 1000 });
      const videoIds = found.groups.map((group) => group.videoId);
      const matchingVideos = new Set(videoIds);
      // A caption held by both transcripts of a video is listed once, in the older one.
      expect(videoIds.length, 'each video listed once').toBe(matchingVideos.size);
      expect(found.groups.some((group) => group.hits.every((hit) => hit.start === null))).toBe(true);
      expect(found.videos, 'each video counted once').toBe(matchingVideos.size);

      const { job, videos, leftOut } = await otherApi.createJobFromSearch({ query: 'river' });
      expect(videos).toBe(matchingVideos.size);
      expect(leftOut).toBe(0);
      expect(job.counts).toMatchObject({ total: matchingVideos.size, ok: matchingVideos.size });
      expect(job.creditsSpent).toBe(0);
    } finally {
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** RFC 4180 as the export writes it: quoted cells may hold commas, quotes and line breaks. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && char === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else {
      cell += char;
    }
  }
  return rows;
}
