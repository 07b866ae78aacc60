import { describe, expect, it } from 'vitest';
import { MAX_SOURCE_LINE_CHARS } from '../../src/shared/limits';
import { firstCsvColumn, sourceEntry, sourceLinesOfFile } from '../../src/shared/source-files';
import { parseSource } from '../../src/shared/sources';

describe('sources from a file, as every face reads them', () => {
  it("takes a CSV file's first column: quotes removed, any separator, header row, blanks and comments left out", () => {
    const csv =
      '\uFEFFURL;note\r\n"@a_channel","one, quoted"\n\n# a comment\n"say ""hi""",x\tPLlist_n2\tz\nvid\n';
    expect(firstCsvColumn(csv)).toEqual([
      { line: 2, text: '@a_channel' },
      { line: 5, text: 'say "hi"' },
      { line: 6, text: 'vid' },
    ]);
    expect(firstCsvColumn('dQw4w9WgXcQ,first row is a source\n')).toEqual([{ line: 1, text: 'dQw4w9WgXcQ' }]);
  });

  it('reads a .csv file by its first column and any other file by its lines', () => {
    const text = 'video_id,title\ndQw4w9WgXcQ,x\n';
    expect(sourceLinesOfFile('/data/list.CSV', text)).toEqual([{ line: 2, text: 'dQw4w9WgXcQ' }]);
    expect(sourceLinesOfFile('list.txt', text)).toEqual([
      { line: 1, text: 'video_id,title' },
      { line: 2, text: 'dQw4w9WgXcQ,x' },
    ]);
  });
});

describe('sourceEntry', () => {
  it('passes a line as it is, and cuts one too long to be a source between two characters', () => {
    expect(sourceEntry('line 1', 'dQw4w9WgXcQ')).toEqual({ where: 'line 1', text: 'dQw4w9WgXcQ' });
    const long = `${'a'.repeat(MAX_SOURCE_LINE_CHARS - 1)}👍 more`;
    const entry = sourceEntry('line 2', long);
    expect(entry.text).toBe('a'.repeat(MAX_SOURCE_LINE_CHARS - 1));
    expect(sourceEntry('x', 'b'.repeat(10_000)).text).toHaveLength(MAX_SOURCE_LINE_CHARS);
  });

  it('leaves a cut line refused as too long, whatever kind of source it starts like', () => {
    for (const start of ['https://www.youtube.com/watch?v=', 'search:', '@', 'PL', '']) {
      const check = parseSource(sourceEntry('line 1', start + 'x'.repeat(20_000)).text);
      expect(check).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^too long: a source has at most 2048/),
      });
    }
  });
});
