import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonText, Seconds } from '../../../../src/core/export/corpus/json-text';
import type { JsonValue } from '../../../../src/core/export/corpus/json-text';

describe('jsonText', () => {
  it('writes what JSON.stringify writes, compact or laid out', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // Those line breaks are escaped on purpose: see the next test.
        fc.pre(!/[\u0085\u2028\u2029]/.test(JSON.stringify(value)));
        const json = value as JsonValue;
        expect(jsonText(json)).toBe(JSON.stringify(value));
        expect(jsonText(json, '  ')).toBe(JSON.stringify(value, null, 2));
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('escapes the line breaks JSON.stringify leaves raw, so that a record stays on one line', () => {
    const text = 'a\u0085b\u2028c\u2029d';
    const line = jsonText({ text });
    expect(line).toBe('{"text":"a\\u0085b\\u2028c\\u2029d"}');
    expect(JSON.parse(line)).toEqual({ text });
  });

  it('writes times with a fraction, so that no reader takes a column of them for integers', () => {
    const times = [18, 21.5, 0, -0, 1e21, 3725.125, Number.NaN, Infinity].map((value) => new Seconds(value));
    expect(jsonText(times)).toBe('[18.0,21.5,0.0,0.0,1e+21,3725.125,null,null]');
    // Integers stay integers.
    expect(jsonText({ count: 3 })).toBe('{"count":3}');
  });

  it('never takes a text of the data for the mark a whole time leaves while it is written', () => {
    const lookalikes = ['\u0000seconds0:18', '"\u0000seconds0:18"', '\u0000seconds1:5', 'x"\u0000seconds0:7'];
    const value = { text: lookalikes, start: new Seconds(18), list: [new Seconds(2), 'plain'] };
    const written = jsonText(value);
    expect(JSON.parse(written)).toEqual({ text: lookalikes, start: 18, list: [2, 'plain'] });
    expect(written).toContain('"start":18.0');
    expect(written).toContain('[2.0,"plain"]');
    expect(jsonText(value, '  ')).toBe(
      JSON.stringify({ text: lookalikes, start: 18, list: [2, 'plain'] }, null, 2)
        .replace('"start": 18', '"start": 18.0')
        .replace('\n    2,', '\n    2.0,'),
    );
  });
});
