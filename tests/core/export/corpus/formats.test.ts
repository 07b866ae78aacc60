import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildCues, formatTimestamp, roundToMs } from '../../../../src/core/export/corpus/cues';
import { DEFAULT_CHUNKING } from '../../../../src/core/export/corpus/chunks';
import {
  plainLines,
  renderSrt,
  renderTranscript,
  renderTxt,
  renderVtt,
} from '../../../../src/core/export/corpus/formats';
import type { ExportFormat, ExportSegment, ExportVideo } from '../../../../src/core/export/corpus/types';

const fixture = (name: string): string =>
  readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

const segmentsSchema = z.array(z.object({ text: z.string(), start: z.number(), duration: z.number() }));
const edgeCases: ExportSegment[] = segmentsSchema.parse(JSON.parse(fixture('edge-cases.json')));

function timedCues(segments: ExportSegment[]) {
  const cues = buildCues(segments);
  if (cues === undefined) throw new Error('expected timed cues');
  return cues;
}

describe('subtitle and text renderers on the edge-case transcript', () => {
  it('renders SRT exactly as the hand-written fixture', () => {
    expect(renderSrt(timedCues(edgeCases))).toBe(fixture('edge-cases.srt'));
  });

  it('renders WebVTT exactly as the hand-written fixture', () => {
    expect(renderVtt(timedCues(edgeCases))).toBe(fixture('edge-cases.vtt'));
  });

  it('renders plain text exactly as the hand-written fixture', () => {
    expect(renderTxt(plainLines(edgeCases))).toBe(fixture('edge-cases.txt'));
  });
});

describe('times', () => {
  it('rounds the decimal as sent to the nearest millisecond', () => {
    expect(roundToMs(1.0005)).toBe(1001);
    // 0.5005 * 1000 is 500.49999999999994 in binary floating point.
    expect(roundToMs(0.5005)).toBe(501);
    expect(roundToMs(0.0004)).toBe(0);
    expect(roundToMs(3599.9996)).toBe(3_600_000);
    expect(roundToMs(18)).toBe(18_000);
  });

  it('rounds every time as its decimal cut to 15 significant digits would round', () => {
    const asDecimal = (seconds: number): number =>
      Math.max(0, Math.round(Number((seconds * 1000).toPrecision(15))));
    // Times of the form n.nnn5 s are where binary products fall just short of, or past, the half millisecond.
    const halfMilliseconds = fc.integer({ min: 0, max: 10 ** 10 }).map((n) => (n + 0.5) / 1000);
    const decimals = fc.tuple(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 7 }));
    const times = fc.oneof(
      halfMilliseconds,
      decimals.map(([n, digits]) => n / 10 ** digits),
      fc.double(),
    );
    fc.assert(
      fc.property(times, (seconds) => Object.is(roundToMs(seconds), asDecimal(seconds))),
      {
        numRuns: 20_000,
      },
    );
  });

  it('formats hours, including past 99', () => {
    expect(formatTimestamp(3_600_000, ',')).toBe('01:00:00,000');
    expect(formatTimestamp(360_000_000 + 61_001, '.')).toBe('100:01:01.001');
  });

  it('lets only a cue that starts within another cut it short, never one that starts earlier', () => {
    const cues = timedCues([
      { text: 'second', start: 5, duration: 2 },
      { text: 'first', start: 1, duration: 2 },
    ]);
    expect(cues[0]).toMatchObject({ startMs: 5000, endMs: 7000 });
    expect(cues[1]).toMatchObject({ startMs: 1000, endMs: 3000 });
  });

  it('makes no cue of zero length: segments starting together share a cue, and a zero duration lasts until the next cue or a second', () => {
    const cues = timedCues([
      { text: 'together', start: 1, duration: 2 },
      { text: 'at once', start: 1, duration: 3 },
      { text: 'no duration', start: 5, duration: 0 },
      { text: 'next', start: 6.5, duration: 1 },
      { text: 'last, no duration', start: 9, duration: 0.0004 },
    ]);
    expect(cues).toEqual([
      { startMs: 1000, endMs: 4000, lines: ['together', 'at once'] },
      { startMs: 5000, endMs: 6500, lines: ['no duration'] },
      { startMs: 6500, endMs: 7500, lines: ['next'] },
      { startMs: 9000, endMs: 10_000, lines: ['last, no duration'] },
    ]);
    expect(cues.every((cue) => cue.endMs > cue.startMs)).toBe(true);
  });

  it('lets a blank segment neither make a cue nor cut the previous one short', () => {
    const cues = timedCues([
      { text: 'kept', start: 0, duration: 4 },
      { text: '\n', start: 1, duration: 1 },
      { text: 'next', start: 4, duration: 1 },
    ]);
    expect(cues.map((cue) => [cue.lines, cue.endMs])).toEqual([
      [['kept'], 4000],
      [['next'], 5000],
    ]);
  });
});

describe('hostile times', () => {
  it('clamps times below 0 or beyond 10^7 seconds, which stored bodies of earlier versions may hold', () => {
    const cues = timedCues([
      { text: 'before zero', start: -5, duration: 6 },
      { text: 'far away', start: 1e12, duration: 1.7e308 },
      { text: 'overflowing', start: 1.7e308, duration: 1.7e308 },
    ]);
    expect(renderSrt(cues)).toBe(
      [
        '1\n00:00:00,000 --> 00:00:01,000\nbefore zero\n',
        // Both start at the end of time: one cue, a millisecond long.
        '2\n2777:46:39,999 --> 2777:46:40,000\nfar away\noverflowing\n',
      ].join('\n'),
    );
  });

  it('treats a transcript with a time that is not a finite number as untimed: no subtitle file', () => {
    for (const time of [Number.NaN, Infinity, -Infinity]) {
      expect(
        buildCues([
          { text: 'a', start: 0, duration: 1 },
          { text: 'b', start: time, duration: 1 },
        ]),
      ).toBe(undefined);
      expect(buildCues([{ text: 'a', start: 0, duration: time }])).toBe(undefined);
    }
  });
});

describe('control characters', () => {
  const hostile = 'a\u0000b\u001bc\u007fd\u0085e\u009ff\tg\u000bh\u000ci';

  it('removes them from cue text, turning tabs into spaces and splitting on line breaks', () => {
    const cues = timedCues([{ text: `${hostile}\r\n\u0007second\u0007`, start: 1, duration: 1 }]);
    expect(cues[0]?.lines).toEqual(['abcdef ghi', 'second']);
    expect(renderVtt(cues)).toBe('WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nabcdef ghi\nsecond\n');
  });

  it('does not let a removed control character hide an arrow from the SRT escaping', () => {
    const cues = timedCues([{ text: 'a --\u0000> b', start: 0, duration: 1 }]);
    expect(renderSrt(cues)).toBe('1\n00:00:00,000 --> 00:00:01,000\na -> b\n');
  });

  it('removes them from txt lines, keeping tabs and one line per segment', () => {
    expect(renderTxt(plainLines([{ text: hostile }, { text: '\u001b[31mred\u001b[0m\r\nnext' }]))).toBe(
      'abcdef\tghi\n[31mred[0m next\n',
    );
  });

  it('keeps them in the json file, which escapes those of C0', () => {
    const video: ExportVideo = {
      number: 1,
      videoId: 'dQw4w9WgXcQ',
      title: 't\u0000',
      source: 's',
      status: 'ok',
      segments: [{ text: hostile }],
    };
    const [json] = renderTranscript(video, ['json'], DEFAULT_CHUNKING).files;
    const rawC0 = [...(json?.content ?? '')].filter((char) => char < ' ' && char !== '\n');
    expect(rawC0).toEqual([]);
    expect(JSON.parse(json?.content ?? '')).toMatchObject({
      title: 't\u0000',
      segments: [{ text: hostile }],
    });
  });
});

describe('renderTranscript', () => {
  const video: ExportVideo = {
    number: 1,
    videoId: 'dQw4w9WgXcQ',
    title: 'Never Gonna',
    source: 'PLx',
    status: 'ok',
    language: 'en',
    segments: [{ text: 'Hello' }, { text: 'world' }],
  };
  const files = (rendered: ExportVideo, formats: ExportFormat[]) =>
    renderTranscript(rendered, formats, DEFAULT_CHUNKING).files;

  it('makes no srt, vtt or passages for a transcript without timestamps, but still makes txt', () => {
    const rendered = renderTranscript(video, ['srt', 'vtt', 'txt', 'chunks'], DEFAULT_CHUNKING);
    expect(rendered.files).toEqual([{ format: 'txt', content: 'Hello\nworld\n' }]);
    expect(rendered.chunks).toEqual([]);
  });

  it('writes a valid empty subtitle file for a transcript with no segments', () => {
    expect(files({ ...video, segments: [] }, ['srt', 'vtt'])).toEqual([
      { format: 'srt', content: '' },
      { format: 'vtt', content: 'WEBVTT\n' },
    ]);
  });

  it('writes files in folder order, whatever the order asked', () => {
    const timed = { ...video, segments: [{ text: 'Hi', start: 0, duration: 1 }] };
    expect(files(timed, ['vtt', 'json', 'srt', 'txt']).map(({ format }) => format)).toEqual([
      'txt',
      'json',
      'srt',
      'vtt',
    ]);
  });
});

describe('plain text', () => {
  const segments: ExportSegment[] = [
    { text: 'Tom & Jerry &amp; friends', start: 0, duration: 1 },
    { text: '&amp;amp; stays &amp;, &lt;b&gt; stays <b>', start: 1, duration: 1 },
    {
      text: '<font color="#E5E5E5">grey</font> <c.yellow><i>words</i></c> &#39;quoted&#x27;',
      start: 2,
      duration: 1,
    },
    { text: '<00:00:03.500>karaoke a --> b &gt;&gt; next', start: 3, duration: 1 },
  ];
  const video: ExportVideo = {
    number: 1,
    videoId: 'dQw4w9WgXcQ',
    title: 'T',
    source: 's',
    status: 'ok',
    segments,
  };
  const rendered = renderTranscript(video, ['txt', 'json', 'srt', 'vtt'], DEFAULT_CHUNKING);
  const content = (format: string) => rendered.files.find((file) => file.format === format)?.content;
  const plain = [
    'Tom & Jerry & friends',
    '&amp; stays &, <b> stays',
    "grey words 'quoted'",
    'karaoke a --> b >> next',
  ];

  it('removes markup tags, then decodes character references exactly once, in txt', () => {
    expect(content('txt')).toBe(plain.map((line) => `${line}\n`).join(''));
  });

  it('escapes the plain text exactly once in VTT, and keeps the arrow guard in SRT', () => {
    expect(content('vtt')).toContain('\nTom &amp; Jerry &amp; friends\n');
    expect(content('vtt')).toContain('\n&amp;amp; stays &amp;, &lt;b&gt; stays\n');
    expect(content('vtt')).toContain('\nkaraoke a --&gt; b &gt;&gt; next\n');
    expect(content('srt')).toContain('\nTom & Jerry & friends\n');
    expect(content('srt')).toContain('\nkaraoke a -> b >> next\n');
  });

  it('keeps the text exactly as sent in the json segments, beside the plain text', () => {
    const record = JSON.parse(content('json') ?? '') as { text: string; segments: Array<{ text: string }> };
    expect(record.segments.map((segment) => segment.text)).toEqual(segments.map((segment) => segment.text));
    expect(record.text).toBe(plain.join('\n'));
  });

  it('keeps text that only looks like markup or a reference', () => {
    const [txt] = renderTranscript(
      { ...video, segments: [{ text: 'x <y and z> w, 3 < 4, AT&T, &unknown; &#0; &#xD800;' }] },
      ['txt'],
      DEFAULT_CHUNKING,
    ).files;
    expect(txt?.content).toBe('x <y and z> w, 3 < 4, AT&T, &unknown; \ufffd \ufffd\n');
  });
});
