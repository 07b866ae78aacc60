import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EntryFingerprints, RENDERING_VERSION } from '../../../../src/core/export/reuse/entry-fingerprints';
import { renderTranscript } from '../../../../src/core/export/corpus/formats';
import type { ExportVideo } from '../../../../src/core/export';

const CHUNKING = { targetSeconds: 60, overlapSeconds: 10 };

const VIDEO: ExportVideo = {
  number: 7,
  videoId: 'dQw4w9WgXcQ',
  title: 'Never <b>gonna</b> & "give"',
  position: 3,
  source: '@channel',
  status: 'ok',
  language: 'en',
  requestedLanguage: '',
  fetchedAt: '2025-01-02T03:04:05.000Z',
  listedAt: '2025-01-01T00:00:00.000Z',
  listing: {
    channelId: 'UC123',
    channelTitle: 'Rick',
    published: '3 weeks ago',
    durationSeconds: 212,
    viewCount: 99,
  },
  contentKey: 'transcript-1',
  segmentCount: 6,
  segments: [
    { text: '<i>Never</i> gonna &amp;amp; give', start: 0.5005, duration: 2 },
    { text: 'you up --> now', start: 0.5005, duration: 0 },
    { text: 'Ωμέγα\u0085line', start: 4, duration: 1.25 },
    { text: '', start: 6, duration: 1 },
    { text: 'a\nsecond line', start: 70, duration: 3 },
    { text: 'last', start: 3725.125, duration: 1 },
  ],
  metadata: { author_name: 'Rick', author_url: 'https://x', thumbnail_url: 'https://t' },
};

/**
 * The SHA-256 of everything renderTranscript makes of VIDEO, by RENDERING_VERSION. An export copies a
 * file from an earlier one when their fingerprints match, and a fingerprint only knows the rendering by
 * RENDERING_VERSION: a change to what is rendered must come with a new version, or a re-export would
 * keep files rendered the old way beside new ones.
 */
const RENDERED_DIGESTS: Record<number, string> = {
  1: '1650475f76ff1f66a6154aa1fec41cc7c172ba93ea4d898468e24057ec9b9f15',
};

describe('RENDERING_VERSION', () => {
  it('names the rendering: what a transcript renders to has not changed since it was set', () => {
    const rendered = renderTranscript(VIDEO, ['txt', 'json', 'srt', 'vtt', 'chunks'], CHUNKING);
    const digest = createHash('sha256')
      .update(
        JSON.stringify([
          rendered.files,
          rendered.record,
          rendered.chunks,
          rendered.wordCount,
          rendered.spokenSeconds,
          rendered.timed,
        ]),
      )
      .digest('hex');
    expect(
      digest,
      'The rendering of a transcript changed: add 1 to RENDERING_VERSION in src/core/export/reuse/entry-fingerprints.ts and record this digest under the new version here.',
    ).toBe(RENDERED_DIGESTS[RENDERING_VERSION]);
  });
});

describe('EntryFingerprints', () => {
  const fingerprints = new EntryFingerprints('1.0.0', 6, CHUNKING);
  const synced: ExportVideo = {
    ...VIDEO,
    position: 9,
    listedAt: '2025-02-01T00:00:00.000Z',
    listing: { ...VIDEO.listing, viewCount: 120 },
  };

  it('of txt, srt and vtt cover the transcript alone: a sync that reads the listing again leaves them', () => {
    for (const format of ['txt', 'srt', 'vtt'] as const) {
      expect(fingerprints.file(format, synced)).toEqual(fingerprints.file(format, VIDEO));
      expect(fingerprints.file(format, { ...VIDEO, contentKey: 'transcript-2' })).not.toEqual(
        fingerprints.file(format, VIDEO),
      );
    }
    expect(fingerprints.file('txt', VIDEO)).not.toEqual(fingerprints.file('srt', VIDEO));
  });

  it('of json and the record cover the listing too', () => {
    expect(fingerprints.file('json', synced)).not.toEqual(fingerprints.file('json', VIDEO));
    expect(fingerprints.record(synced)).toEqual(fingerprints.file('json', synced));
  });

  it('of passages cover the chunk settings, and none cover another tool version', () => {
    const otherChunks = new EntryFingerprints('1.0.0', 6, { targetSeconds: 30, overlapSeconds: 5 });
    expect(otherChunks.chunks(VIDEO)).not.toEqual(fingerprints.chunks(VIDEO));
    expect(otherChunks.file('txt', VIDEO)).toEqual(fingerprints.file('txt', VIDEO));
    const otherTool = new EntryFingerprints('1.0.1', 6, CHUNKING);
    expect(otherTool.file('txt', VIDEO)).not.toEqual(fingerprints.file('txt', VIDEO));
  });

  it('are none for a transcript without a content key: it is always rendered', () => {
    const { contentKey: _, ...unnamed } = VIDEO;
    expect(fingerprints.file('txt', unnamed)).toBeUndefined();
    expect(fingerprints.record(unnamed)).toBeUndefined();
  });
});
