import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchText, snippetOf } from '../../src/shared/search-match';
import { parseSearchQuery, type SearchQuery } from '../../src/shared/search-query';
import { indexText } from '../../src/shared/search-text';

function parsed(text: string): SearchQuery {
  const result = parseSearchQuery(text);
  if (!result.ok) throw new Error(result.message);
  return result.query;
}

function message(text: string): string {
  const result = parseSearchQuery(text);
  if (result.ok) throw new Error(`"${text}" was accepted`);
  return result.message;
}

const term = (tokens: string[], prefix = false) => expect.objectContaining({ tokens, prefix });

describe('parseSearchQuery', () => {
  it('reads words, phrases, prefixes, OR and exclusions, folding case and Latin diacritics', () => {
    expect(parsed('River "Small ENGINE" astro* -light café OR thé')).toEqual({
      groups: [
        [term(['river'])],
        [term(['small', 'engine'])],
        [term(['astro'], true)],
        [term(['cafe']), term(['the'])],
      ],
      excluded: [term(['light'])],
    });
  });

  it('cuts text without spaces into pairs, a single character being a prefix', () => {
    expect(parsed('毎朝').groups).toEqual([[term(['毎朝'])]]);
    expect(parsed('静かに').groups).toEqual([[term(['静か', 'かに'])]]);
    expect(parsed('川').groups).toEqual([[term(['川'], true)]]);
    // A run followed by more of the same term keeps its last character, as the index does.
    expect(parsed('"毎朝 river"').groups).toEqual([[term(['毎朝', '朝', 'river'])]]);
    // Text with letters beyond ASCII is folded before the index's tokenizer sees it.
    expect(indexText('Le 毎朝光 RIVER')).toBe('le  毎朝 朝光 光  river');
    expect(indexText('Plain RIVER text')).toBe('Plain RIVER text');
  });

  it("folds case as Unicode's full case folding does, the same for the query and the text", () => {
    expect(parsed('GRÖSSER').groups).toEqual([[term(['grosser'])]]);
    expect(parsed('größer').groups).toEqual([[term(['grosser'])]]);
    expect(parsed('STRAẞE ﬁne').groups).toEqual([[term(['strasse'])], [term(['fine'])]]);
    expect(indexText('Das ist größer.')).toBe('das ist grosser.');
    expect(matchText(parsed('GROSSER'), 'Das ist größer.')).toEqual([[8, 14]]);
    expect(matchText(parsed('größer'), 'DAS IST GRÖSSER')).toEqual([[8, 15]]);
  });

  it('cuts Hangul into pairs, so that a word is found with the particle joined to it', () => {
    expect(parsed('엔진').groups).toEqual([[term(['엔진'])]]);
    expect(indexText('새 엔진을 샀다').split(' ').filter(Boolean)).toEqual([
      '새',
      '엔진',
      '진을',
      '을',
      '샀다',
      '다',
    ]);
    expect(matchText(parsed('엔진'), '새 엔진을 샀다')).toEqual([[2, 4]]);
    expect(matchText(parsed('"엔진을"'), '새 엔진이 좋다')).toBeNull();
  });

  it('reads compatibility forms as their plain letters, the same for the query and the text (NFKC)', () => {
    const jamo = '엔진'.normalize('NFD'); // Korean in conjoining jamo, as macOS file names give it
    expect(jamo).toHaveLength(6);
    expect(parsed(jamo).groups).toEqual([[term(['엔진'])]]);
    expect(parsed('ｒｉｖｅｒ').groups).toEqual([[term(['river'])]]);
    expect(parsed('ＲＩＶＥＲ').groups).toEqual([[term(['river'])]]);
    expect(parsed('ｴﾝｼﾞﾝ').groups).toEqual([[term(['エン', 'ンジ', 'ジン'])]]);
    expect(parsed('エンジン').groups).toEqual([[term(['エン', 'ンジ', 'ジン'])]]);
    // The index is given the same tokens for text in those forms.
    expect(indexText('The ｒｉｖｅｒ')).toBe('the river');
    expect(indexText('小さなｴﾝｼﾞﾝ')).toBe(indexText('小さなエンジン'));
    expect(indexText(`새 ${jamo}을`)).toBe(indexText('새 엔진을'));
    // Matches are marked in the text as it was given, whatever its form.
    const halfwidth = '小さなｴﾝｼﾞﾝを作る';
    expect(snippetOf(halfwidth, matchText(parsed('エンジン'), halfwidth) ?? [])).toEqual([
      { text: '小さな', match: false },
      { text: 'ｴﾝｼﾞﾝ', match: true },
      { text: 'を作る', match: false },
    ]);
    const decomposed = `새 ${jamo}을 샀다`;
    const marked = snippetOf(decomposed, matchText(parsed('엔'), decomposed) ?? []).filter((p) => p.match);
    expect(marked.map((part) => part.text)).toEqual(['엔'.normalize('NFD')]);
    expect(matchText(parsed('river'), 'The ＲＩＶＥＲ flows')).toEqual([[4, 9]]);
  });

  it("treats the index's own syntax as words", () => {
    expect(parsed('NEAR(').groups).toEqual([[term(['near'])]]);
    expect(parsed('title:river').groups).toEqual([[term(['title', 'river'])]]);
    expect(parsed('NOT AND river ^x').groups).toEqual([
      [term(['not'])],
      [term(['and'])],
      [term(['river'])],
      [term(['x'])],
    ]);
    // Punctuation alone is nothing to search for, as in the index.
    expect(parsed('river ( & )').groups).toEqual([[term(['river'])]]);
  });

  it.each([
    ['"unbalanced', /A quote is not closed/],
    ['river "small engine', /A quote is not closed/],
    ['*', /A \* stands for the end of a word/],
    ['river *', /A \* stands for the end of a word/],
    ['as*tro', /A \* goes only at the end of a word/],
    ['"" ()', /Type something to search for/],
    ['', /Type something to search for/],
    ['   ', /Type something to search for/],
    ['-river', /excluded words alone/],
    ['-river -"small engine"', /excluded words alone/],
    ['OR', /OR goes between two words/],
    ['river OR', /OR goes between two words/],
    ['river OR OR lake', /OR goes between two words/],
    ['river OR -lake', /OR goes between two words/],
    ['x'.repeat(10_000), /at most 500 characters; this one has 10000/],
    ['river\nlake', /control characters/],
    ['river\tlake', /control characters/],
    ['river\u0000', /control characters/],
  ])('refuses %j in plain words', (text, expected) => {
    expect(message(text)).toMatch(expected);
  });

  it('never throws, and what it accepts has only letters, digits and marks in its tokens', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80, unit: 'grapheme-composite' }), (text) => {
        const result = parseSearchQuery(text);
        if (!result.ok) return typeof result.message === 'string' && result.message.length > 0;
        const terms = [...result.query.groups.flat(), ...result.query.excluded];
        return terms.every(
          (t) => t.tokens.length > 0 && t.tokens.every((tok) => /^[\p{L}\p{N}\p{M}]+$/u.test(tok)),
        );
      }),
      { seed: 21, numRuns: 2000 },
    );
  });
});

describe('matchText and snippetOf', () => {
  it('marks each match in the segment, and needs every group', () => {
    const query = parsed('river engine*');
    const text = 'The River builds engines, the river again';
    const ranges = matchText(query, text);
    expect(snippetOf(text, ranges ?? [])).toEqual([
      { text: 'The ', match: false },
      { text: 'River', match: true },
      { text: ' builds ', match: false },
      { text: 'engines', match: true },
      { text: ', the ', match: false },
      { text: 'river', match: true },
      { text: ' again', match: false },
    ]);
    expect(matchText(query, 'the river alone')).toBeNull();
    expect(matchText(parsed('river -again'), text)).toBeNull();
  });

  it('finds a Japanese substring anywhere in a run, and marks only it', () => {
    const text = '私たちは毎朝静かに学ぶ';
    for (const wanted of ['毎朝', '静', 'ぶ', '私たちは毎朝静かに学ぶ', 'は毎']) {
      const ranges = matchText(parsed(wanted), text);
      expect(ranges, wanted).not.toBeNull();
      const marked = snippetOf(text, ranges ?? []).filter((part) => part.match);
      expect(
        marked.map((part) => part.text),
        wanted,
      ).toEqual([wanted]);
    }
    expect(matchText(parsed('朝毎'), text)).toBeNull();
  });
});
