import { describe, expect, it } from 'vitest';
import { LineReader } from '../../../../src/core/export/verify/line-reader';

function lines(pieces: string[], maxBytes = 10): Array<string | undefined> {
  const found: Array<string | undefined> = [];
  const reader = new LineReader(maxBytes, (line) => found.push(line?.toString('utf8')));
  for (const piece of pieces) reader.push(Buffer.from(piece));
  reader.end();
  return found;
}

describe('LineReader', () => {
  it('splits at LF however the bytes come, a last line without LF included', () => {
    expect(lines(['ab', 'c\nde\n', '\nf'])).toEqual(['abc', 'de', '', 'f']);
    expect(lines(['a\n'])).toEqual(['a']);
  });

  it('hands a line longer than its limit over as undefined, and goes on with the next', () => {
    expect(lines(['12345', '67890', '1\nok\n'])).toEqual([undefined, 'ok']);
    expect(lines(['x'.repeat(100)])).toEqual([undefined]);
  });
});
