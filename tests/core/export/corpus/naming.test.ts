import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryPath, FILE_FORMATS, StemNamer } from '../../../../src/core/export/corpus/naming';
import { MAX_ENTRY_PATH_BYTES } from '../../../../src/core/export/zip/layout';
import type { ExportVideo } from '../../../../src/core/export/corpus/types';

const ID = 'dQw4w9WgXcQ';

function video(title: string, extra: Partial<ExportVideo> = {}): ExportVideo {
  return { number: 1, videoId: ID, title, source: 'PLlist', status: 'ok', language: 'en', ...extra };
}

/** The video numbered `number` in its corpus. */
const numbered = (number: number, title: string, extra: Partial<ExportVideo> = {}): ExportVideo =>
  video(title, { ...extra, number });

/** The stem of a corpus's first video (number 1). */
function stemOf(title: string, extra: Partial<ExportVideo> = {}, template?: string): string {
  return new StemNamer(template).stemFor(video(title, extra));
}

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The docs/product.md path rules plus the naming rules of src/core/export/corpus/naming.ts, for one entry path. */
function expectSafePath(path: string, videoId: string, ext: string): void {
  expect(utf8Bytes(path)).toBeLessThanOrEqual(MAX_ENTRY_PATH_BYTES);
  expect(path).not.toMatch(/\p{Cs}/u); // a lone surrogate has no UTF-8 form
  expect(path).not.toMatch(/[\p{Cc}\\:*?"<>|]/u);
  expect(path).not.toMatch(/\p{Bidi_Control}/u);
  expect(path.normalize('NFC')).toBe(path);
  const parts = path.split('/');
  expect(parts).toHaveLength(2);
  const fileName = parts[1] ?? '';
  expect(['.', '..']).not.toContain(fileName);
  expect(fileName.endsWith(`[${videoId}].${ext}`)).toBe(true);
  expect(fileName).not.toMatch(/^[\s.]/u);
  expect(fileName.split('.')[0]?.trimEnd()).not.toMatch(/^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])$/i);
}

describe('StemNamer', () => {
  it('uses the default template, with the corpus number in front, always six digits', () => {
    const stem = new StemNamer().stemFor(numbered(7, 'Never Gonna'));
    expect(entryPath('srt', stem)).toBe('srt/000007 - Never Gonna [dQw4w9WgXcQ].srt');
  });

  it('numbers videos across the whole corpus, so that first videos of two playlists never share a number', () => {
    const namer = new StemNamer();
    const first = namer.stemFor(numbered(1, 'Intro', { position: 1, source: 'PLfirst' }));
    const second = namer.stemFor(
      numbered(2, 'Intro', { position: 1, source: 'PLsecond', videoId: 'abcdefghijk' }),
    );
    expect([first, second]).toEqual([`000001 - Intro [${ID}]`, '000002 - Intro [abcdefghijk]']);
  });

  it('does not add the position twice when the template already places it', () => {
    expect(new StemNamer('{position}. {title} [{video_id}]').stemFor(numbered(7, 'Song'))).toBe(
      '000007. Song [dQw4w9WgXcQ]',
    );
  });

  it('names a video with an empty title by its position and id', () => {
    expect(stemOf('')).toBe(`000001 - [${ID}]`);
    expect(stemOf('', {}, '{title} {position}')).toBe(`000001 [${ID}]`);
  });

  it('fills {language} and appends [id] when the template lacks it', () => {
    expect(stemOf('Song', {}, '{title} ({language})')).toBe(`000001 - Song (en) [${ID}]`);
  });

  it('replaces characters that are forbidden somewhere', () => {
    expect(stemOf('a/b\\c:d*e?f"g<h>i|j\u0001k\u007fl\u0085m')).toBe(
      `000001 - a_b_c_d_e_f_g_h_i_j_k_l_m [${ID}]`,
    );
    expect(stemOf('two\r\nlines\t and  tabs')).toBe(`000001 - two lines and tabs [${ID}]`);
  });

  it('removes the bidirectional controls that could disguise an extension', () => {
    // Shown as "invoice_exe.pdf [id].txt" by a file manager that honours U+202E.
    const stem = stemOf('invoice\u202Efdp.exe', { language: 'ar\u200F' }, '{title} {language}');
    expect(stem).toBe(`000001 - invoicefdp.exe ar [${ID}]`);
    const bidi = [
      0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
    ];
    const every = String.fromCodePoint(...bidi);
    expect(stemOf(`a${every}b`, { videoId: `dQw4w9${every}WgXcQ` })).toBe(`000001 - ab [${ID}]`);
  });

  it('cuts an absurdly long video id so that the path still fits', () => {
    const videoId = 'é'.repeat(300);
    const stem = stemOf('Song', { videoId });
    const path = entryPath('json', stem);
    expect(utf8Bytes(path)).toBeLessThanOrEqual(MAX_ENTRY_PATH_BYTES);
    expect(stem).toBe(`000001 - Song [${'é'.repeat(32)}]`);
  });

  it('tells apart names only a case-folding file system confuses, such as ſ and s', () => {
    // The same position twice, to reach the guard behind positions (see below).
    const namer = new StemNamer('{title} {position}');
    expect([namer.stemFor(numbered(1, 'ſong')), namer.stemFor(numbered(1, 'SONG'))]).toEqual([
      `ſong 000001 [${ID}]`,
      `SONG 000001 (2) [${ID}]`,
    ]);
  });

  it('keeps a path-traversal title inside its folder', () => {
    const path = entryPath('txt', stemOf('../../etc/passwd', {}, '{title} {position}'));
    expect(path).toBe(`txt/_.._etc_passwd 000001 [${ID}].txt`);
    expectSafePath(path, ID, 'txt');
  });

  it('strips trailing dots and spaces, and leading dots that would hide the file', () => {
    expect(stemOf('Wait for it... ', {}, '{title}')).toBe(`000001 - Wait for it [${ID}]`);
    expect(stemOf('.hidden', {}, '{title} {position}')).toBe(`hidden 000001 [${ID}]`);
  });

  it('prefixes Windows reserved device names, also with an extension', () => {
    // The position in front makes any title safe; a template may put the title first.
    expect(stemOf('nul.txt')).toBe(`000001 - nul.txt [${ID}]`);
    expect(stemOf('nul.txt', {}, '{title} {position}')).toBe(`_nul.txt 000001 [${ID}]`);
    expect(stemOf('COM1 .backup', {}, '{title} {position}')).toBe(`_COM1 .backup 000001 [${ID}]`);
    expect(stemOf('LPT¹.x', {}, '{title} {position}')).toBe(`_LPT¹.x 000001 [${ID}]`);
    // Not reserved: the name before the first dot is "CON 000001 [id]", not "CON".
    expect(stemOf('CON', {}, '{title} {position}')).toBe(`CON 000001 [${ID}]`);
  });

  it('normalises to NFC', () => {
    expect(stemOf('Cafe\u0301')).toBe(`000001 - Caf\u00e9 [${ID}]`);
  });

  it('shortens a 300-character title to fit 200 bytes in every folder, keeping the same stem', () => {
    const stem = new StemNamer().stemFor(numbered(12, 'x'.repeat(300)));
    for (const format of FILE_FORMATS) expectSafePath(entryPath(format, stem), ID, format);
    expect(utf8Bytes(entryPath('json', stem))).toBe(MAX_ENTRY_PATH_BYTES);
    expect(stem.startsWith('000012 - xxx')).toBe(true);
  });

  it('cuts multi-byte titles between graphemes, never inside one', () => {
    const family = '👨‍👩‍👧‍👦';
    for (const unit of ['é', '日本', family, 'e\u0301\u0302', '🎵a']) {
      const title = unit.repeat(120);
      const stem = stemOf(title);
      expectSafePath(entryPath('json', stem), ID, 'json');
      const kept = stem.slice('000001 - '.length, -` [${ID}]`.length);
      const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(kept)];
      const original = [
        ...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(title.normalize('NFC')),
      ];
      expect(graphemes.map((g) => g.segment)).toEqual(
        original.slice(0, graphemes.length).map((g) => g.segment),
      );
      expect(graphemes.length).toBeGreaterThan(0);
    }
  });

  it('needs no guard when positions lead: the same title and id at two positions', () => {
    for (const template of [undefined, '{title}', '{position} - {title}']) {
      const namer = new StemNamer(template);
      const stems = [namer.stemFor(numbered(9, 'Song')), namer.stemFor(numbered(10, 'SONG'))];
      expect(stems.map((stem) => stem.slice(0, 6))).toEqual(['000009', '000010']);
      expect(stems.join()).not.toContain('(2)');
    }
  });

  it('makes names unique by adding (2), (3) before [id], ignoring case', () => {
    // Positions differ in a corpus; the same one is given here to reach the guard behind them.
    const namer = new StemNamer('{title} {position}');
    const first = namer.stemFor(numbered(1, 'Song'));
    const second = namer.stemFor(numbered(1, 'Song'));
    const third = namer.stemFor(numbered(1, 'song'));
    expect([first, second, third]).toEqual([
      `Song 000001 [${ID}]`,
      `Song 000001 (2) [${ID}]`,
      `song 000001 (3) [${ID}]`,
    ]);
    // Ids that differ only in case would overwrite each other on Windows and macOS.
    const lower = namer.stemFor(numbered(1, 'Other', { videoId: 'abcdefghijk' }));
    const upper = namer.stemFor(numbered(1, 'OTHER', { videoId: 'ABCDEFGHIJK' }));
    expect([lower, upper]).toEqual(['Other 000001 [abcdefghijk]', 'OTHER 000001 (2) [ABCDEFGHIJK]']);
  });

  it('still fits 200 bytes when a long title needs a copy number', () => {
    const namer = new StemNamer('{title} {position}');
    namer.stemFor(numbered(1, 't'.repeat(300)));
    const copy = namer.stemFor(numbered(1, 't'.repeat(300)));
    expect(copy.endsWith(` (2) [${ID}]`)).toBe(true);
    expectSafePath(entryPath('json', copy), ID, 'json');
  });

  it('gives every title, template and position a safe, unique path', () => {
    const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
    const title = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc.string({ unit: anyCodeUnit, maxLength: 300 }),
      fc.string({ unit: fc.constantFrom('.', ' ', '/', 'é', '👍', 'CON', 'nul', ':', 'a'), maxLength: 99 }),
    );
    const template = fc.constantFrom(
      undefined,
      '{title}',
      '{video_id}',
      '{position} {title}',
      '{title} {position}',
      '{language}/{title}',
      '{title} [{video_id}] {language}',
    );
    const count = fc.integer({ min: 4, max: 99_999 });
    fc.assert(
      fc.property(fc.array(title, { minLength: 1, maxLength: 4 }), template, count, (titles, tpl, videos) => {
        const namer = new StemNamer(tpl);
        // Positions differ, as in a corpus, and are as wide as the corpus makes them.
        const stems = titles.map((t, index) => namer.stemFor(numbered(videos - index, t)));
        expect(new Set(stems.map((s) => s.toLowerCase())).size).toBe(stems.length);
        for (const stem of stems) {
          for (const format of FILE_FORMATS) expectSafePath(entryPath(format, stem), ID, format);
        }
      }),
      { numRuns: 200 },
    );
  });
});
