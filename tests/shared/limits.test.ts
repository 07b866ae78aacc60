import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkChannelInput,
  checkContinuation,
  checkLang,
  checkPlaylistId,
  checkSearchQuery,
  checkVideoUrl,
  parseLangPreference,
} from '../../src/shared/limits';

const emoji = '😀'; // one character, two UTF-16 units
/** Any code point, lone surrogates included (fast-check's own 'binary' unit is slow to start). */
const anyCharacter = fc
  .integer({ min: 0, max: 0x10ffff })
  .map((codePoint) => String.fromCodePoint(codePoint));

describe('checkVideoUrl', () => {
  it.each([
    ['a', null],
    ['a'.repeat(2048), null],
    [emoji.repeat(2048), null],
  ])('accepts %#', (value, expected) => {
    expect(checkVideoUrl(value)).toBe(expected);
  });

  it.each(['', 'a'.repeat(2049), emoji.repeat(2049)])('refuses a value of the wrong length (%#)', (value) => {
    expect(checkVideoUrl(value)).toMatch(/video URL or ID must have 1 to 2048 characters/);
  });
});

describe('checkLang', () => {
  it.each(['en', 'es', 'eng', 'pt-BR', 'zh-Hans', 'zh-Hans-CN', 'EN', 'en-abcdefgh-ijkl'])(
    'accepts %s',
    (lang) => {
      expect(checkLang(lang)).toBeNull();
    },
  );

  it.each([
    '',
    'e',
    'engl',
    'orig',
    'pt_BR',
    'en-',
    'en-a',
    'en-abcdefghi',
    'en-abcdefgh-ijklm',
    'é',
    'en BR',
  ])('refuses %j', (lang) => {
    expect(checkLang(lang)).toMatch(/language code must look like en, es or pt-BR.*at most 16 characters/);
  });
});

describe('checkPlaylistId', () => {
  it.each([
    'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf',
    'UUX6OQ3DkcsbYNE6H8uQQuVA',
    'LL',
    'FLabc',
    'OLAK5uy_n',
    `PL${'a'.repeat(198)}`,
  ])('accepts %s', (id) => {
    expect(checkPlaylistId(id)).toBeNull();
  });

  it.each([
    ['', /1 to 200 characters/],
    [`PL${'a'.repeat(199)}`, /1 to 200 characters \(this one has 201\)/],
    ['RDdQw4w9WgXcQ', /starts with PL, UU, LL, FL, OL/],
    ['plabc', /starts with PL/],
    ['WL', /starts with PL/],
    ['PLabc!def', /only letters, digits, - and _/],
    ['PLabc def', /only letters, digits, - and _/],
  ])('refuses %j', (id, reason) => {
    expect(checkPlaylistId(id)).toMatch(reason);
  });
});

describe('checkContinuation', () => {
  it('accepts 1 to 8192 characters and names the limit otherwise', () => {
    expect(checkContinuation('x')).toBeNull();
    expect(checkContinuation('x'.repeat(8192))).toBeNull();
    expect(checkContinuation('')).toMatch(/continuation cursor must have 1 to 8192 characters/);
    expect(checkContinuation('x'.repeat(8193))).toMatch(/1 to 8192 characters/);
  });
});

describe('checkChannelInput', () => {
  it('accepts 1 to 200 characters, counted as characters rather than UTF-16 units', () => {
    expect(checkChannelInput('@a')).toBeNull();
    expect(checkChannelInput(emoji.repeat(200))).toBeNull();
    expect(checkChannelInput('')).toMatch(/channel \(@handle, URL or UC id\) must have 1 to 200 characters/);
    expect(checkChannelInput(emoji.repeat(201))).toMatch(/this one has 201/);
  });
});

describe('checkSearchQuery', () => {
  it('counts the query without the spaces around it', () => {
    expect(checkSearchQuery('  lofi beats  ')).toBeNull();
    expect(checkSearchQuery(` ${'q'.repeat(200)} `)).toBeNull();
    expect(checkSearchQuery('   ')).toMatch(
      /search query must have 1 to 200 characters, not counting spaces/,
    );
    expect(checkSearchQuery('q'.repeat(201))).toMatch(/1 to 200 characters/);
  });
});

describe('parseLangPreference', () => {
  it.each([
    ['es,en,orig', ['es', 'en', 'orig']],
    [' es , pt-BR ', ['es', 'pt-BR']],
    ['orig', ['orig']],
    ['ORIG,en', ['orig', 'en']],
    ['en,orig,fr', ['en', 'orig', 'fr']],
  ])('reads %j', (text, langs) => {
    expect(parseLangPreference(text)).toEqual({ ok: true, langs });
  });

  it.each([
    ['', /language list is empty/],
    ['   ', /language list is empty/],
    ['es,,en', /entry 2 of the language list is empty/],
    ['es,', /entry 2 of the language list is empty/],
    ['en,EN', /"EN" appears twice/],
    ['orig,es,Orig', /"Orig" appears twice/],
    ['es,english', /"english": a language code must look like/],
    ['es;en', /"es;en": a language code/],
  ])('refuses %j', (text, reason) => {
    const result = parseLangPreference(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  it('accepts any list of distinct valid codes, in order', () => {
    const lang = fc.stringMatching(/^[a-z]{2,3}(-[A-Z]{2})?$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(lang, { minLength: 1, maxLength: 6, selector: (code) => code.toLowerCase() }),
        (langs) => {
          expect(parseLangPreference(langs.join(','))).toEqual({ ok: true, langs });
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('every checker', () => {
  const checkers = [
    checkVideoUrl,
    checkLang,
    checkPlaylistId,
    checkContinuation,
    checkChannelInput,
    checkSearchQuery,
  ];

  it('returns null or a non-empty reason for any string, and never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: anyCharacter, maxLength: 120 }), (value) => {
        for (const check of checkers) {
          const reason = check(value);
          expect(reason === null || reason.length > 0).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('measures channel inputs in characters, whatever the script', () => {
    fc.assert(
      fc.property(fc.string({ unit: anyCharacter, maxLength: 260 }), (value) => {
        const length = [...value].length;
        expect(checkChannelInput(value) === null).toBe(length >= 1 && length <= 200);
      }),
      { numRuns: 300 },
    );
  });
});
