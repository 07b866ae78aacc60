import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvReader, type CsvLimits } from '../../../../src/core/export/verify/csv-reader';

const SEED = 24_240_024;
const ROOMY: CsvLimits = { maxCells: 1000, maxCellChars: 65_536 };

/** The records of `text` read in pieces cut at `cuts`. */
function records(text: string, cuts: number[] = [], limits = ROOMY, keep?: number[]): string[][] {
  const found: string[][] = [];
  const reader = new CsvReader(limits, (record) => {
    found.push(record);
    if (keep !== undefined && found.length === 1) reader.keepOnly(keep);
  });
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    reader.push(text.slice(from, cut));
    from = cut;
  }
  reader.push(text.slice(from));
  reader.end();
  return found;
}

/** How Python's csv module reads the same text: the reader verify follows. */
function pythonRecords(texts: string[]): string[][][] {
  const script = `
import csv, io, json, sys
print(json.dumps([list(csv.reader(io.StringIO(text, newline=""))) for text in json.load(sys.stdin)]))`;
  return JSON.parse(
    execFileSync('python3', ['-c', script], { input: JSON.stringify(texts) }).toString(),
  ) as string[][][];
}

describe('CsvReader', () => {
  it("reads what Python's csv reads, however the text is cut into pieces", () => {
    const unit = fc.constantFrom('a', 'é', '日', ',', '"', '\n', '\r', '\r\n', ' ', '|');
    const texts = fc.sample(fc.string({ unit, maxLength: 40 }), { seed: SEED, numRuns: 300 });
    const expected = pythonRecords(texts);
    for (const [index, text] of texts.entries()) {
      const cuts = fc.sample(fc.array(fc.integer({ min: 0, max: text.length }), { maxLength: 5 }), {
        seed: SEED + index,
        numRuns: 1,
      })[0];
      expect(records(text, cuts), JSON.stringify(text)).toEqual(expected[index]);
    }
  });

  it('keeps only the columns asked for after the header, counting the others', () => {
    const text = 'video_id,title,status\nabc,"a, long title",ok\ndef,x,failed\n';
    expect(records(text, [], ROOMY, [2])).toEqual([
      ['video_id', 'title', 'status'],
      ['', '', 'ok'],
      ['', '', 'failed'],
    ]);
  });

  it('refuses a cell longer than its limit, kept or not, and a record of too many cells', () => {
    const limits = { maxCells: 3, maxCellChars: 5 };
    expect(() => records('a,b\n"123456",x\n', [], limits, [1])).toThrow(
      'record 2, cell 1 holds more than 5 characters',
    );
    expect(() => records('ab,cdefgh\n', [4], limits)).toThrow(
      'record 1, cell 2 holds more than 5 characters',
    );
    expect(() => records('a,b,c,d\n', [], limits)).toThrow('record 1 has more than 3 cells');
  });
});
