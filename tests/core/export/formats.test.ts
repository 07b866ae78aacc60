import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildCues, formatTimestamp, roundToMs } from '../../../src/core/export/cues';
import { renderFile, renderJson, renderSrt, renderTxt, renderVtt } from '../../../src/core/export/formats';
import type { ExportSegment, ExportVideo } from '../../../src/core/export/types';

const fixture = (name: string): string =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

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
    expect(renderTxt(edgeCases)).toBe(fixture('edge-cases.txt'));
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

  it('formats hours, including past 99', () => {
    expect(formatTimestamp(3_600_000, ',')).toBe('01:00:00,000');
    expect(formatTimestamp(360_000_000 + 61_001, '.')).toBe('100:01:01.001');
  });

  it('never ends a cue before it starts when a later segment starts earlier', () => {
    const cues = timedCues([
      { text: 'second', start: 5, duration: 2 },
      { text: 'first', start: 1, duration: 2 },
    ]);
    expect(cues[0]).toMatchObject({ startMs: 5000, endMs: 5000 });
    expect(cues[1]).toMatchObject({ startMs: 1000, endMs: 3000 });
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

describe('renderFile', () => {
  const video: ExportVideo = {
    videoId: 'dQw4w9WgXcQ',
    title: 'Never Gonna',
    source: 'PLx',
    status: 'ok',
    language: 'en',
    segments: [{ text: 'Hello' }, { text: 'world' }],
    raw: [{ text: 'Hello' }, { text: 'world' }],
  };

  it('makes no srt or vtt for a transcript without timestamps, but still makes txt', () => {
    expect(renderFile('srt', video)).toBeUndefined();
    expect(renderFile('vtt', video)).toBeUndefined();
    expect(renderFile('txt', video)).toBe('Hello\nworld\n');
  });

  it('writes a valid empty subtitle file for a transcript with no segments', () => {
    const empty = { ...video, segments: [] };
    expect(renderFile('srt', empty)).toBe('');
    expect(renderFile('vtt', empty)).toBe('WEBVTT\n');
  });

  it('puts the body as received under "transcript" in the json file', () => {
    const raw = { odd: true, transcript: [{ text: 'x', start: 18.0 }] };
    const parsed: unknown = JSON.parse(renderJson({ ...video, raw }));
    expect(parsed).toEqual({
      video_id: 'dQw4w9WgXcQ',
      language: 'en',
      title: 'Never Gonna',
      source: 'PLx',
      transcript: raw,
    });
  });
});
