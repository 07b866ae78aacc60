import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonFieldReader, type FieldReading } from '../../../../src/core/export/verify/json-field-reader';

const SEED = 24_240_024;

/** Reads `text` in pieces cut at `cuts` (positions, any order). */
function read(text: string, cuts: number[] = [], field = 'counts'): FieldReading {
  const reader = new JsonFieldReader(field);
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    reader.push(text.slice(from, cut));
    from = cut;
  }
  reader.push(text.slice(from));
  return reader.end();
}

/** What JSON.parse makes of `text`: the field of a top-level object, or that there is none or no JSON. */
function parsed(text: string, field = 'counts'): 'not JSON' | 'no field' | { value: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !(field in value))
    return 'no field';
  return { value: (value as Record<string, unknown>)[field] };
}

const cutsOf = (text: string) => fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 8 });

describe('JsonFieldReader', () => {
  it('finds the field a top-level object holds, in any nesting of other fields, however the text is cut', () => {
    const documents = fc
      .tuple(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), fc.boolean())
      .map(([object, counts, last]) => {
        const withCounts = last ? { ...object, counts } : { counts, ...object };
        return JSON.stringify(withCounts, null, last ? 2 : undefined);
      });
    fc.assert(
      fc.property(
        documents.chain((text) => fc.tuple(fc.constant(text), cutsOf(text))),
        ([text, cuts]) => {
          expect(read(text, cuts)).toEqual({
            found: true,
            value: (JSON.parse(text) as { counts: unknown }).counts,
          });
        },
      ),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('agrees with JSON.parse on which texts are JSON, whatever they hold', () => {
    const jsonish = fc.oneof(
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.string({
        unit: fc.constantFrom(...'{}[]":,0123456789-+.eEtrufalsn \\u\n\t'.split('')),
        maxLength: 30,
      }),
      fc
        .jsonValue()
        .map((value) => JSON.stringify({ counts: value }))
        .chain((text) => fc.tuple(fc.constant(text), fc.integer({ min: 0, max: text.length - 1 })))
        .map(([text, at]) => text.slice(0, at) + text.slice(at + 1)),
    );
    fc.assert(
      fc.property(
        jsonish.chain((text) => fc.tuple(fc.constant(text), cutsOf(text))),
        ([text, cuts]) => {
          const reading = read(text, cuts);
          const expected = parsed(text);
          if (expected === 'not JSON')
            expect(reading).toMatchObject({
              found: false,
              problem: expect.stringMatching(/^it is not JSON: /),
            });
          else if (expected === 'no field')
            expect(reading).toEqual({ found: false, problem: 'it has no "counts" field' });
          else expect(reading).toEqual({ found: true, value: expected.value });
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('takes the last of two fields of the name, as JSON.parse does, and a key spelled with escapes', () => {
    expect(read('{"counts":1,"counts":2}')).toEqual({ found: true, value: 2 });
    expect(read('{"\\u0063ounts":{"ok":3}}')).toEqual({ found: true, value: { ok: 3 } });
    expect(read('{"a":{"counts":1}}')).toEqual({ found: false, problem: 'it has no "counts" field' });
  });

  it('holds only the field, however long the rest: a 100 MB string streams through', () => {
    const reader = new JsonFieldReader('counts');
    reader.push('{"padding":"');
    const piece = 'x'.repeat(1 << 20);
    for (let i = 0; i < 100; i++) reader.push(piece);
    reader.push('","counts":{"ok":1}}');
    expect(reader.end()).toEqual({ found: true, value: { ok: 1 } });
  });

  it('refuses nesting deeper than it tracks, a field too long to keep, and a number without end', () => {
    expect(read(`${'['.repeat(600)}${']'.repeat(600)}`)).toEqual({
      found: false,
      problem: 'it is not JSON: it nests deeper than 512 levels',
    });
    expect(read(`{"counts":"${'x'.repeat(70_000)}"}`)).toEqual({
      found: false,
      problem: 'it is not JSON: its "counts" field is longer than 65536 characters',
    });
    expect(read(`{"n":${'1'.repeat(600)}}`)).toEqual({
      found: false,
      problem: 'it is not JSON: a number or word is too long',
    });
  });
});
