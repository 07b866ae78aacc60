import { describe, expect, it } from 'vitest';
import { readTranscript, readVideoPage, rereadStoredTranscript } from '../../../src/core/api/schemas';

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

  it("keeps a list item's position only when it is a place in a list: a whole number", () => {
    const indexes = [3, '4', 0, -5, '-7', 2.5, 1e300, Number.MAX_SAFE_INTEGER + 1, 'x', null, {}];
    const body = { results: indexes.map((index, i) => ({ video_id: `video${i}`, index })) };
    const reading = readVideoPage(body, 'a playlist page');
    expect(reading.ok && reading.value.items.map((item) => item.index)).toEqual([
      3,
      4,
      0,
      ...indexes.slice(3).map(() => undefined),
    ]);
  });

  it('says which segment field is unusable', () => {
    const reading = readTranscript({ transcript: [{ text: 'a' }, { text: 7 }] }, REQUEST);
    expect(reading).toEqual({
      ok: false,
      problem: 'the service sent a transcript whose transcript[1].text is not text',
    });
  });
});

describe('segment times', () => {
  const withTime = (field: 'start' | 'duration', value: unknown) => ({
    transcript: [
      { text: 'a', start: 1, duration: 1 },
      { text: 'b', start: 2, duration: 1, [field]: value },
    ],
  });

  it.each([
    ['start', 1.7e308],
    ['start', 1e12],
    ['duration', -5],
    ['start', '-5'],
    ['duration', '1e400'],
    ['start', '99999999999'],
    ['start', null],
  ] as const)('refuses a transcript whose %s is %s, naming the field', (field, value) => {
    expect(readTranscript(withTime(field, value), REQUEST)).toEqual({
      ok: false,
      problem: `the service sent a transcript whose transcript[1].${field} is not a usable time (a number of seconds from 0 to 10000000, about 115 days)`,
    });
  });

  it('refuses an infinite time, which JSON.parse makes of 1e400', () => {
    const body: unknown = JSON.parse('{"transcript": [{"text": "a", "start": 1e400, "duration": 1}]}');
    expect(readTranscript(body, REQUEST)).toMatchObject({
      ok: false,
      problem: expect.stringContaining('transcript[0].start is not a usable time') as unknown,
    });
  });

  it('accepts times from 0 to 10^7 seconds, as numbers or numeric text', () => {
    const body = {
      transcript: [
        { text: 'a', start: 0, duration: 10_000_000 },
        { text: 'b', start: '10000000', duration: '0.25' },
      ],
    };
    const reading = readTranscript(body, REQUEST);
    expect(reading.ok && reading.value.segments).toEqual([
      { text: 'a', start: 0, duration: 10_000_000 },
      { text: 'b', start: 10_000_000, duration: 0.25 },
    ]);
  });

  it('still reads a stored body whose times an earlier version accepted, so its job can be exported', () => {
    const stored = { transcript: [{ text: 'a', start: -5, duration: 1e12 }] };
    expect(readTranscript(stored, REQUEST).ok).toBe(false);
    const reading = rereadStoredTranscript(stored, REQUEST);
    expect(reading.ok && reading.value.segments).toEqual([{ text: 'a', start: -5, duration: 1e12 }]);
  });
});
