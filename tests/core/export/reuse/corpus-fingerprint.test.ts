import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeCorpus } from '../../../../src/core/export';
import type { ExportInput, ExportVideo } from '../../../../src/core/export';
import { CORPUS_VERSION } from '../../../../src/core/export/reuse/corpus-fingerprint';

/** Two timed videos, an untimed one and a failed one, in two sources, with a sync and a change. */
function videos(): ExportVideo[] {
  const timed = (number: number): ExportVideo => ({
    number,
    videoId: `corpusVid${number}0`,
    title: `Talk ${number} & "more"`,
    position: number,
    source: '@lab',
    status: 'ok',
    language: 'en',
    requestedLanguage: '',
    fetchedAt: '2025-01-02T03:04:05.000Z',
    listing: { channelTitle: 'Lab', published: '2 days ago', durationSeconds: 90, viewCount: 12 },
    listedAt: '2025-01-01T00:00:00.000Z',
    memberOf: [0, 1],
    contentKey: `transcript-${number}`,
    segmentCount: 3,
    segments: [
      { text: `First words of talk ${number}`, start: 0, duration: 2.5 },
      { text: 'Ωμέγα and more', start: 2.5, duration: 3 },
      { text: 'the end', start: 70, duration: 1 },
    ],
    metadata: { author_name: 'Lab' },
  });
  return [
    timed(1),
    { ...timed(2), latestRead: { position: 5, listedAt: '2025-02-01T00:00:00.000Z' } },
    { ...timed(3), segments: [{ text: 'no times here' }], segmentCount: 1 },
    {
      number: 4,
      videoId: 'corpusVid40',
      title: '',
      position: 4,
      source: '@lab',
      status: 'failed',
      httpStatus: 502,
      message: 'Bad gateway',
    },
  ];
}

const INPUT: ExportInput = {
  manifest: {
    tool: { name: 'Scriptorium', version: '1.0.0' },
    job_id: '7',
    sources: ['@lab', 'PLlab0000000'],
    skipped_sources: [],
    failed_sources: [],
    options: {},
    counts: { videos: 4, ok: 3, unavailable: 0, failed: 1, pending: 0, skipped: 0, sources_failed: 0 },
    credits_spent: 4,
    credits_possible: 0,
    finished_at: '2025-01-02T03:04:05.000Z',
    version: 2,
    versions: [
      { version: 1, releasedAt: '2025-01-01T03:04:05.000Z', added: 3, retried: 0, changed: 0 },
      { version: 2, releasedAt: '2025-01-02T03:04:05.000Z', added: 1, retried: 0, changed: 1 },
    ],
    job_finished: true,
    all_videos_transcribed: false,
    service: { name: 'Video Transcript Service', api_version: 'v2', addresses: ['https://api.example.com/'] },
    // Given, so that the digest below does not depend on the ICU of the Node that runs the test.
    word_count: { method: 'runs of letters, marks and digits', icu: '74.1' },
  },
  formats: ['txt', 'json', 'srt', 'vtt', 'chunks'],
  videos,
  memberships: () => [
    {
      videoId: 'corpusVid10',
      source: '@lab',
      listId: 'UClab',
      listTitle: 'Lab',
      position: 1,
      listedAt: '2025-01-01T00:00:00.000Z',
    },
    {
      videoId: 'corpusVid10',
      source: 'PLlab0000000',
      listId: 'PLlab0000000',
      listTitle: 'Best of',
      position: 1,
      listedAt: '2025-01-01T00:00:00.000Z',
    },
  ],
  changes: () => [{ version: 2, videoId: 'corpusVid20', change: 'changed', detail: 'title' }],
  citation: {
    title: 'Lab talks',
    description: 'Talks of the lab.',
    authors: [{ familyNames: 'Doe', givenNames: 'Jo' }],
    license: 'CC-BY-4.0',
  },
  syncs: [{ at: '2025-01-02T03:04:05.000Z', newVideos: 1, credits: 1 }],
  languages: { en: 3 },
  sourceDetails: [
    { kind: 'channel', label: '@lab' },
    { kind: 'playlist', label: 'PLlab0000000' },
  ],
};

/**
 * The SHA-256 of every entry's name and content, in the order the ZIP lists them, of INPUT's corpus,
 * by CORPUS_VERSION (compression aside: zlib's version is in the fingerprint itself). An export keeps
 * the earlier file at its path when the fingerprints of their inputs match, and a fingerprint knows
 * how a corpus is written only by CORPUS_VERSION: a change to what is written must come with a new
 * version, or a corpus whose job did not change would keep the old bytes.
 */
const WRITTEN_DIGESTS: Record<number, string> = {
  1: '35ac30e14c42b75edffa90163907539c62749cf527263f35f30ffa95010c73ab',
  // index.csv pairs each position with the time of its list's latest read; the datasheet says how
  // syncs applied the selection, judged per list; a version is released by the export that writes it,
  // errors.csv and memberships.csv come after the entries that name the version, the dataset card
  // lists only what loads (issue 33).
  2: 'b4da98cde9fe8d0a042e7a215ed6827ab1b523d5667da37259def579721a6672',
  // The datasheet's durability promise covers a power cut too, each commit synced (issue 36).
  3: 'bfd439523ebd0b6dc41cf1d5e14d3e8029ec2be8ee550e362fc91e956189fc8f',
  // The manifest names the service, its API version and addresses, how words are counted and with
  // which ICU, and says job_finished and all_videos_transcribed where it said complete; CITATION.cff
  // names a license CFF's list lacks in license-url; the card lists only configurations that load;
  // the data package and the datasheet say that channel/latest gives exact times on any read (issue 43).
  4: '90ed60c5f2192ca92ffc22284bd47f3900ad972902d5b7e9e1f7919e04b45235',
};

const DIGEST_ENTRIES = `
import hashlib, sys, zipfile
digest = hashlib.sha256()
with zipfile.ZipFile(sys.argv[1]) as corpus:
    for info in corpus.infolist():
        data = corpus.read(info)
        digest.update(info.filename.encode() + b"\\0" + str(len(data)).encode() + b"\\0" + data)
print(digest.hexdigest(), end="")
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scriptorium-corpus-version-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('CORPUS_VERSION', () => {
  it('names how a corpus is written: what INPUT writes has not changed since it was set', async () => {
    const path = join(dir, 'corpus.zip');
    await writeCorpus(INPUT, path);
    const digest = execFileSync('python3', ['-c', DIGEST_ENTRIES, path], { encoding: 'utf8' });
    expect(
      digest,
      'What a corpus holds changed: add 1 to CORPUS_VERSION in src/core/export/reuse/corpus-fingerprint.ts and record this digest under the new version here.',
    ).toBe(WRITTEN_DIGESTS[CORPUS_VERSION]);
  });
});
