import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNKING } from '../../../../src/core/export/corpus/chunks';
import { renderTranscript } from '../../../../src/core/export/corpus/formats';
import { stringify } from 'csv-stringify/sync';
import { MAX_CSV_CELL_CHARS } from '../../../../src/core/export/corpus/schema';
import { csvHeader, errorsCsv, indexRow } from '../../../../src/core/export/corpus/tables';
import type { ExportVideo } from '../../../../src/core/export/corpus/types';

const rows = (lines: Iterable<string>): string[] => [...lines].slice(1);

/** index.csv rows of videos whose transcript was not written (no word count, no files). */
const indexRows = (videos: ExportVideo[]): string[] => videos.map((video) => indexRow(video, undefined));

/**
 * What follows `position` in such a row when the list page told nothing: empty cells but the URL and
 * the corpus number (1).
 */
const rest = (videoId: string): string => `,,,,,,https://www.youtube.com/watch?v=${videoId},,,,,1,,,\n`;

const transcriptLine = (video: ExportVideo): string => renderTranscript(video, [], DEFAULT_CHUNKING).record;

function okVideo(extra: Partial<ExportVideo>): ExportVideo {
  return {
    number: 1,
    videoId: 'dQw4w9WgXcQ',
    title: 't',
    source: 's',
    status: 'ok',
    language: 'en',
    ...extra,
  };
}

describe('index.csv and errors.csv against CSV injection', () => {
  it.each([
    ['=HYPERLINK("http://evil","x")', `"'=HYPERLINK(""http://evil"",""x"")"`],
    ['+1', "'+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', `"'\r=1"`],
    ['\u0000=1', "'=1"], // a removed control character does not hide the trigger
    ['a = b - c', 'a = b - c'],
  ])('puts an apostrophe before a title like %j', (title, cell) => {
    expect(indexRows([okVideo({ title, segmentCount: 3 })])).toEqual([
      `dQw4w9WgXcQ,${cell},en,ok,3,s,${rest('dQw4w9WgXcQ')}`,
    ]);
  });

  it('neutralises free text (the message) but writes identifiers as they are: a source joins manifest.json', () => {
    const failed: ExportVideo = {
      number: 1,
      videoId: 'aaaaaaaaaaa',
      title: '',
      source: '@research_channel',
      status: 'failed',
      position: 7,
      httpStatus: 502,
      code: 'E_BAD_GATEWAY',
      message: '@ once',
    };
    expect(
      indexRows([failed, okVideo({ language: 'en-US', segmentCount: 0, source: '-dQw4w9WgXc' })]),
    ).toEqual([
      `aaaaaaaaaaa,,,failed,,@research_channel,7${rest('aaaaaaaaaaa')}`,
      `dQw4w9WgXcQ,t,en-US,ok,0,-dQw4w9WgXc,${rest('dQw4w9WgXcQ')}`,
    ]);
    expect(rows(errorsCsv([failed]))).toEqual([
      "aaaaaaaaaaa,failed,502,E_BAD_GATEWAY,'@ once,@research_channel\n",
    ]);
  });

  it('still neutralises an identifier that could run as a formula, which only a broken service sends', () => {
    const failed: ExportVideo = {
      number: 1,
      videoId: 'aaaaaaaaaaa',
      title: '',
      source: 's',
      status: 'failed',
      code: '=E',
    };
    expect(indexRows([okVideo({ language: '+en', segmentCount: 0 })])).toEqual([
      `dQw4w9WgXcQ,t,'+en,ok,0,s,${rest('dQw4w9WgXcQ')}`,
    ]);
    expect(rows(errorsCsv([failed]))).toEqual(["aaaaaaaaaaa,failed,,'=E,,s\n"]);
    expect(rows(errorsCsv([{ ...failed, code: '@SUM(A1)' }]))).toEqual([
      "aaaaaaaaaaa,failed,,'@SUM(A1),,s\n",
    ]);
  });

  it('keeps a video ID exact even when it starts with - or @, but not one that could be a formula', () => {
    const ids = ['-abcdefghij', '=1+1', '-1', '@abcdefghij'];
    const videos = ids.map((videoId): ExportVideo => ({
      number: 1,
      videoId,
      title: '',
      source: 's',
      status: 'unavailable',
    }));
    expect(rows(errorsCsv(videos)).map((line) => line.split(',')[0])).toEqual([
      '-abcdefghij',
      "'=1+1",
      '-1',
      '@abcdefghij',
    ]);
  });

  it('quotes a lone carriage return, which a reader would otherwise take for the end of the record', () => {
    expect(indexRows([okVideo({ title: 'a\rb', segmentCount: 1 })])).toEqual([
      `dQw4w9WgXcQ,"a\rb",en,ok,1,s,${rest('dQw4w9WgXcQ')}`,
    ]);
  });

  it('writes each record byte for byte as csv-stringify wrote the tables of earlier versions', () => {
    const cells = [
      'plain',
      '',
      'a,b',
      'say "hi"',
      '"',
      'l\nb',
      'c\rr',
      'x\r\ny',
      ' spaced ',
      "it's",
      'é ✓',
      '1.5',
    ];
    for (const [i, cell] of cells.entries()) {
      const record = [cell, cells[(i + 1) % cells.length] ?? '', cell];
      expect(csvHeader(record), JSON.stringify(record)).toBe(
        stringify([record], { record_delimiter: 'unix', quoted_match: /\r/ }),
      );
    }
  });

  it('removes control characters but keeps tabs and line breaks, which quoting carries', () => {
    const title = 'a\u0000b\u001bc\u007fd\u0085e\u009ff\tg\r\nh';
    expect(indexRows([okVideo({ title, segmentCount: 1 })])).toEqual([
      `dQw4w9WgXcQ,"abcdef\tg\r\nh",en,ok,1,s,${rest('dQw4w9WgXcQ')}`,
    ]);
  });

  it('keeps each transcripts.jsonl record on one line for readers that split on any line break', () => {
    const text = 'a\u0085b\u2028c\u2029d\u000be\u001cf\r\ng';
    const line = transcriptLine(okVideo({ segments: [{ text }] }));
    // Every line break Python's str.splitlines knows, \r\n included.
    const lineBreaks = ['\n', '\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029'];
    expect(lineBreaks.filter((lineBreak) => line.slice(0, -1).includes(lineBreak))).toEqual([]);
    expect(JSON.parse(line)).toMatchObject({ segments: [{ text }] });
  });

  it("neutralises the list page's texts, writes its numbers, dates, the URL, word count and files", () => {
    const video = okVideo({
      number: 3,
      listedAt: '2025-01-22T00:00:00.000Z',
      title: 'Talk',
      segmentCount: 2,
      position: 3,
      listing: {
        channelTitle: '=Evil channel',
        channelId: 'UC123',
        published: '3 weeks ago',
        durationSeconds: 754,
        viewCount: 1234,
      },
      requestedLanguage: '',
      fetchedAt: '2025-01-02T03:04:05.000Z',
    });
    const files = ['txt/000003 - Talk [dQw4w9WgXcQ].txt', 'json/000003 - Talk [dQw4w9WgXcQ].json'];
    // "3 weeks ago" on 2025-01-22: at least 21 and less than 28 days before.
    expect(indexRow(video, { wordCount: 42, files })).toBe(
      "dQw4w9WgXcQ,Talk,en,ok,2,s,3,'=Evil channel,UC123,3 weeks ago,754,1234," +
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ,orig,42,2025-01-02T03:04:05.000Z,' +
        'txt/000003 - Talk [dQw4w9WgXcQ].txt|json/000003 - Talk [dQw4w9WgXcQ].json,3,' +
        '2024-12-25,2025-01-01,2025-01-22T00:00:00.000Z\n',
    );
    // Not ok: what the list page said stays, the transcript's columns are empty.
    const skipped: ExportVideo = {
      ...video,
      status: 'skipped',
      code: 'filter',
      message: 'shorter than 60 s',
    };
    expect(indexRow(skipped, undefined)).toBe(
      "dQw4w9WgXcQ,Talk,,skipped,,s,3,'=Evil channel,UC123,3 weeks ago,754,1234," +
        'https://www.youtube.com/watch?v=dQw4w9WgXcQ,,,,,3,2024-12-25,2025-01-01,2025-01-22T00:00:00.000Z\n',
    );
    expect(rows(errorsCsv([skipped]))).toEqual(['dQw4w9WgXcQ,skipped,,filter,shorter than 60 s,s\n']);
  });

  it('percent-encodes an id in the URL, even one with a lone surrogate', () => {
    const row = indexRow(
      { number: 1, videoId: 'a b&c\ud800', title: '', source: 's', status: 'failed' },
      undefined,
    );
    expect(row).toContain(',https://www.youtube.com/watch?v=a%20b%26c%EF%BF%BD,');
  });

  it('keeps transcripts.jsonl as received', () => {
    const video = okVideo({ title: '=x', source: '\u0000-s', segments: [{ text: '=1\u001b' }] });
    expect(JSON.parse(transcriptLine(video))).toMatchObject({
      source: '\u0000-s',
      segments: [{ text: '=1\u001b' }],
    });
  });

  it('cuts a cell longer than any real title where verify stops reading, never inside a character', () => {
    const title = `${'x'.repeat(MAX_CSV_CELL_CHARS - 1)}👍 and more`;
    const [, cell] = indexRows([okVideo({ title, segmentCount: 1 })])[0]?.split(',') ?? [];
    expect(cell).toBe('x'.repeat(MAX_CSV_CELL_CHARS - 1));
    const neutralised = `=${'y'.repeat(MAX_CSV_CELL_CHARS)}`;
    const [, message] =
      rows(errorsCsv([{ ...okVideo({}), status: 'failed', message: neutralised }]))[0]
        ?.split(',')
        .slice(3) ?? [];
    expect(message).toBe(`'=${'y'.repeat(MAX_CSV_CELL_CHARS - 2)}`);
  });
});
