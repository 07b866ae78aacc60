import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryPath, MAX_ENTRY_PATH_BYTES, StemNamer } from '../../../src/core/export/naming';
import { EXPORT_FORMATS } from '../../../src/core/export/types';
import type { ExportVideo } from '../../../src/core/export/types';

const ID = 'dQw4w9WgXcQ';

function video(title: string, extra: Partial<ExportVideo> = {}): ExportVideo {
  return { videoId: ID, title, source: 'PLlist', status: 'ok', language: 'en', ...extra };
}

function stemOf(title: string, extra: Partial<ExportVideo> = {}, template?: string): string {
  return new StemNamer(template).stemFor(video(title, extra));
}

const utf8Bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The docs/product.md path rules plus the naming rules of src/core/export/naming.ts, for one entry path. */
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
  it('uses the default template, with the zero-padded playlist position in front', () => {
    const stem = stemOf('Never Gonna', { position: 7, positionWidth: 3 });
    expect(entryPath('srt', stem)).toBe('srt/007 - Never Gonna [dQw4w9WgXcQ].srt');
  });

  it('does not add the position twice when the template already places it', () => {
    expect(stemOf('Song', { position: 7, positionWidth: 2 }, '{position}. {title} [{video_id}]')).toBe(
      '07. Song [dQw4w9WgXcQ]',
    );
  });

  it('names a video with an empty title just by its id', () => {
    expect(stemOf('')).toBe(`[${ID}]`);
    expect(stemOf('', { position: 3, positionWidth: 1 })).toBe(`3 - [${ID}]`);
  });

  it('fills {language} and appends [id] when the template lacks it', () => {
    expect(stemOf('Song', {}, '{title} ({language})')).toBe(`Song (en) [${ID}]`);
  });

  it('replaces characters that are forbidden somewhere', () => {
    expect(stemOf('a/b\\c:d*e?f"g<h>i|j\u0001k\u007fl\u0085m')).toBe(`a_b_c_d_e_f_g_h_i_j_k_l_m [${ID}]`);
    expect(stemOf('two\r\nlines\t and  tabs')).toBe(`two lines and tabs [${ID}]`);
  });

  it('removes the bidirectional controls that could disguise an extension', () => {
    // Shown as "invoice_exe.pdf [id].txt" by a file manager that honours U+202E.
    const stem = stemOf('invoice\u202Efdp.exe', { language: 'ar\u200F' }, '{title} {language}');
    expect(stem).toBe(`invoicefdp.exe ar [${ID}]`);
    const bidi = [
      0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
    ];
    const every = String.fromCodePoint(...bidi);
    expect(stemOf(`a${every}b`, { videoId: `dQw4w9${every}WgXcQ` })).toBe(`ab [${ID}]`);
  });

  it('cuts an absurdly long video id so that the path still fits', () => {
    const videoId = 'é'.repeat(300);
    const stem = stemOf('Song', { videoId });
    const path = entryPath('json', stem);
    expect(utf8Bytes(path)).toBeLessThanOrEqual(MAX_ENTRY_PATH_BYTES);
    expect(stem).toBe(`Song [${'é'.repeat(32)}]`);
  });

  it('tells apart names only a case-folding file system confuses, such as ſ and s', () => {
    const namer = new StemNamer('{title}');
    expect([namer.stemFor(video('ſong')), namer.stemFor(video('SONG'))]).toEqual([
      `ſong [${ID}]`,
      `SONG (2) [${ID}]`,
    ]);
  });

  it('keeps a path-traversal title inside its folder', () => {
    const path = entryPath('txt', stemOf('../../etc/passwd'));
    expect(path).toBe(`txt/_.._etc_passwd [${ID}].txt`);
    expectSafePath(path, ID, 'txt');
  });

  it('strips trailing dots and spaces, and leading dots that would hide the file', () => {
    expect(stemOf('Wait for it... ', {}, '{title}')).toBe(`Wait for it [${ID}]`);
    expect(stemOf('.hidden')).toBe(`hidden [${ID}]`);
  });

  it('prefixes Windows reserved device names, also with an extension', () => {
    expect(stemOf('nul.txt')).toBe(`_nul.txt [${ID}]`);
    expect(stemOf('COM1 .backup')).toBe(`_COM1 .backup [${ID}]`);
    expect(stemOf('LPT¹.x')).toBe(`_LPT¹.x [${ID}]`);
    // Not reserved: the name before the first dot is "CON [id]", not "CON".
    expect(stemOf('CON')).toBe(`CON [${ID}]`);
  });

  it('normalises to NFC', () => {
    expect(stemOf('Cafe\u0301')).toBe(`Caf\u00e9 [${ID}]`);
  });

  it('shortens a 300-character title to fit 200 bytes in every folder, keeping the same stem', () => {
    const stem = stemOf('x'.repeat(300), { position: 12, positionWidth: 4 });
    for (const format of EXPORT_FORMATS) expectSafePath(entryPath(format, stem), ID, format);
    expect(utf8Bytes(entryPath('json', stem))).toBe(MAX_ENTRY_PATH_BYTES);
    expect(stem.startsWith('0012 - xxx')).toBe(true);
  });

  it('cuts multi-byte titles between graphemes, never inside one', () => {
    const family = '👨‍👩‍👧‍👦';
    for (const unit of ['é', '日本', family, 'e\u0301\u0302', '🎵a']) {
      const title = unit.repeat(120);
      const stem = stemOf(title);
      expectSafePath(entryPath('json', stem), ID, 'json');
      const kept = stem.slice(0, -` [${ID}]`.length);
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

  it('makes names unique by adding (2), (3) before [id], ignoring case', () => {
    const namer = new StemNamer('{title}');
    const first = namer.stemFor(video('Song'));
    const second = namer.stemFor(video('Song'));
    const third = namer.stemFor(video('song'));
    expect([first, second, third]).toEqual([`Song [${ID}]`, `Song (2) [${ID}]`, `song (3) [${ID}]`]);
    // Ids that differ only in case would overwrite each other on Windows and macOS.
    const lower = namer.stemFor(video('Other', { videoId: 'abcdefghijk' }));
    const upper = namer.stemFor(video('OTHER', { videoId: 'ABCDEFGHIJK' }));
    expect([lower, upper]).toEqual(['Other [abcdefghijk]', 'OTHER (2) [ABCDEFGHIJK]']);
  });

  it('still fits 200 bytes when a long title needs a copy number', () => {
    const namer = new StemNamer();
    namer.stemFor(video('t'.repeat(300)));
    const copy = namer.stemFor(video('t'.repeat(300)));
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
      '{language}/{title}',
      '{title} [{video_id}] {language}',
    );
    const position = fc.option(fc.integer({ min: 1, max: 99_999 }), { nil: undefined });
    fc.assert(
      fc.property(fc.array(title, { minLength: 1, maxLength: 4 }), template, position, (titles, tpl, pos) => {
        const namer = new StemNamer(tpl);
        const stems = titles.map((t) => namer.stemFor(video(t, { position: pos, positionWidth: 5 })));
        expect(new Set(stems.map((s) => s.toLowerCase())).size).toBe(stems.length);
        for (const stem of stems) {
          for (const format of EXPORT_FORMATS) expectSafePath(entryPath(format, stem), ID, format);
        }
      }),
      { numRuns: 200 },
    );
  });
});
