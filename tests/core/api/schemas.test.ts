import { describe, expect, it } from 'vitest';
import { readTranscript, readVideoPage } from '../../../src/core/api/schemas';

const REQUEST = { video: 'dQw4w9WgXcQ', includeTimestamp: true, sendMetadata: true };

describe('reading bodies whose field names come in either case', () => {
  it('takes the first spelling sent when a field comes both in snake_case and camelCase', () => {
    const body = {
      videoId: 'camelFirst1',
      video_id: 'snakeLater1',
      transcript: [{ text: 'hi', start: 1 }],
      metadata: { author_name: 'Snake', authorName: 'Camel', thumbnailUrl: 'http://t/1.jpg' },
    };
    const reading = readTranscript(body, REQUEST);
    expect(reading.ok && reading.value.videoId).toBe('camelFirst1');
    expect(reading.ok && reading.value.metadata).toEqual({
      authorName: 'Snake',
      thumbnailUrl: 'http://t/1.jpg',
    });
  });

  it('keeps in each segment only the fields and times that were sent, whatever else comes along', () => {
    const body = {
      transcript: [
        { text: 'timed', start: '18.0', duration: 3, confidence: 0.9 },
        { text: 'untimed', Start: 4, start_time: 5 },
      ],
    };
    const reading = readTranscript(body, REQUEST);
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.value.segments).toStrictEqual([
      { text: 'timed', start: 18, duration: 3 },
      { text: 'untimed' },
    ]);
  });

  it('reads list pages in either case, ignoring names that only look alike', () => {
    const body = {
      results: [{ video_id: 'aaaaaaaaaaa', Title: 'not the title', has_captions: true }],
      continuationToken: 'next',
      has_more: true,
    };
    const reading = readVideoPage(body, 'a playlist page');
    expect(reading.ok && reading.value).toStrictEqual({
      items: [{ videoId: 'aaaaaaaaaaa', title: '', hasCaptions: true }],
      continuation: 'next',
      hasMore: true,
    });
  });

  it('says which segment field is unusable', () => {
    const reading = readTranscript({ transcript: [{ text: 'a' }, { text: 7 }] }, REQUEST);
    expect(reading).toEqual({
      ok: false,
      problem: 'the service sent a transcript whose transcript[1].text is not text',
    });
  });
});
