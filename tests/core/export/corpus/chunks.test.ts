import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildChunks, DEFAULT_CHUNKING } from '../../../../src/core/export/corpus/chunks';
import type { ExportSegment } from '../../../../src/core/export/corpus/types';

/** Segments from [start, end, text] triples. */
const segments = (...spans: Array<[number, number, string]>): ExportSegment[] =>
  spans.map(([start, end, text]) => ({ text, start, duration: end - start }));

/** Passages as [start, end, text] in seconds, to compare with a hand-made expectation. */
function passages(input: ExportSegment[], targetSeconds = 60, overlapSeconds = 10) {
  return buildChunks(input, { targetSeconds, overlapSeconds })?.map(({ startMs, endMs, text }) => [
    startMs / 1000,
    endMs / 1000,
    text,
  ]);
}

describe('buildChunks', () => {
  it('repeats the segments of the last overlap seconds at the start of the next passage', () => {
    // Twenty segments of 5 s: 0-60 s, then from the segment starting at 50 s (60 - 10) to the end.
    const everyFive = Array.from({ length: 20 }, (_, i): [number, number, string] => [
      i * 5,
      i * 5 + 5,
      `s${i}`,
    ]);
    expect(passages(segments(...everyFive))).toEqual([
      [
        0,
        60,
        everyFive
          .slice(0, 12)
          .map(([, , text]) => text)
          .join(' '),
      ],
      [
        50,
        100,
        everyFive
          .slice(10)
          .map(([, , text]) => text)
          .join(' '),
      ],
    ]);
  });

  it('makes a segment longer than the target a passage alone, and loses no segment', () => {
    expect(
      passages(
        segments(
          [0, 20, 'a'],
          [20, 40, 'b'],
          [40, 55, 'c'],
          [55, 70, 'd'], // would make the first passage 70 s long
          [70, 100, 'e'],
          [100, 190, 'f'], // 90 s: longer than the target
          [190, 200, 'g'],
        ),
      ),
    ).toEqual([
      [0, 55, 'a b c'], // nothing starts in 45-55 s after the first segment but c at 40 s: no overlap
      [55, 100, 'd e'],
      [100, 190, 'f'],
      [190, 200, 'g'],
    ]);
  });

  it('counts a passage from its first start to the latest end among its segments', () => {
    // The second segment ends before the first: the passage still ends at 30 s, and takes the third.
    expect(passages(segments([0, 30, 'long'], [5, 10, 'inside'], [30, 50, 'after']), 50, 10)).toEqual([
      [0, 50, 'long inside after'],
    ]);
  });

  it('leaves out blank segments, uses the plain text, and rounds times to the millisecond', () => {
    expect(
      passages(
        [
          { text: '<i>Tom</i> &amp; Jerry', start: 0.0004, duration: 1.0001 },
          { text: ' \n ', start: 1, duration: 100 },
          { text: 'line one\nline two', start: 1.2345, duration: 0.5 },
        ],
        60,
        10,
      ),
    ).toEqual([[0, 1.735, 'Tom & Jerry line one line two']]);
  });

  it('makes no passages for a transcript without times, and none for an empty one', () => {
    expect(buildChunks([{ text: 'untimed' }], DEFAULT_CHUNKING)).toBeUndefined();
    expect(
      buildChunks(
        [
          { text: 'timed', start: 0, duration: 1 },
          { text: 'not', start: 2 },
        ],
        DEFAULT_CHUNKING,
      ),
    ).toBe(undefined);
    expect(buildChunks([], DEFAULT_CHUNKING)).toEqual([]);
  });

  it('always moves forward, keeps every segment, and stays within the target but for a lone segment', () => {
    const segment = fc.record({
      start: fc.integer({ min: 0, max: 600 }),
      duration: fc.integer({ min: 0, max: 120 }),
    });
    const chunking = fc
      .tuple(fc.integer({ min: 1, max: 90 }), fc.integer({ min: 0, max: 89 }))
      .filter(([target, overlap]) => overlap < target);
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 40 }), chunking, (spans, [target, overlap]) => {
        const input = spans.map(({ start, duration }, i) => ({ text: `w${i}`, start, duration }));
        const chunks = buildChunks(input, { targetSeconds: target, overlapSeconds: overlap }) ?? [];
        const words = chunks.map((chunk) => chunk.text.split(' '));
        expect(new Set(words.flat())).toEqual(new Set(input.map((item) => item.text)));
        for (const [i, chunk] of chunks.entries()) {
          const inside = words[i] ?? [];
          if (inside.length > 1) expect(chunk.endMs - chunk.startMs).toBeLessThanOrEqual(target * 1000);
          const next = words[i + 1];
          // The next passage starts on a later segment than this one did.
          if (next !== undefined)
            expect(Number(next[0]?.slice(1))).toBeGreaterThan(Number(inside[0]?.slice(1)));
        }
      }),
      { seed: 20_241_111, numRuns: 500 },
    );
  });
});
