import { describe, expect, it, vi } from 'vitest';
import { countWords, plainLine, plainText } from '../../../../src/core/export/corpus/plain-text';

describe('plainText', () => {
  it.each([
    ['Tom & Jerry &amp; friends', 'Tom & Jerry & friends'],
    ['&amp;amp; is decoded once', '&amp; is decoded once'],
    ['&lt;b&gt;literal&lt;/b&gt; <b>tag</b>', '<b>literal</b> tag'],
    ['<font color="#E5E5E5">grey</font><br/>next', 'greynext'],
    ['<c.colorE5E5E5>cue</c> <v Roger Bingham>voice</v> <lang en>lang</lang>', 'cue voice lang'],
    ['<00:00:01.500>karaoke <01:02.250>word', 'karaoke word'],
    ['&#39;&#x27;&quot;&apos;&hellip;&nbsp;&mdash;', "''\"'\u2026\u00a0\u2014"],
    ['&#0; &#xD800; &#x110000; &#27;[2J', '\ufffd \ufffd \ufffd [2J'],
    ['x <y and z> w, 3 < 4 > 2, AT&T, &unknown;, & ;', 'x <y and z> w, 3 < 4 > 2, AT&T, &unknown;, & ;'],
  ])('makes %j plain: %j', (text, plain) => {
    expect(plainText(text)).toBe(plain);
  });

  it('removes every control character but tab, LF and CR, and nothing else', () => {
    for (let code = 0; code <= 0x3000; code += 1) {
      const char = String.fromCharCode(code);
      const isRemoved = /\p{Cc}/u.test(char) && !'\t\n\r'.includes(char);
      expect(plainText(`a${char}b`)).toBe(isRemoved ? 'ab' : `a${char}b`);
    }
  });

  it('puts a segment on one line, trimmed, keeping tabs', () => {
    expect(plainLine('  one\r\n\n two\u2028three\tfour  ')).toBe('one two three\tfour');
  });
});

describe('countWords', () => {
  it.each([
    ["Hello, world! It's 3.5 million — ok?", 6],
    ['1,000 people in the U.S. use e-mail', 8],
    ["l'été arrive", 2],
    ['Γεια σου κόσμε, Привет мир', 5],
    ['', 0],
    ['— ... !!!', 0],
  ])('counts %j as %i words', (text, words) => {
    expect(countWords(text)).toBe(words);
  });

  it('splits scripts written without spaces into dictionary words', () => {
    expect(countWords('東京は晴れです')).toBe(4);
    expect(countWords('สวัสดีครับ')).toBe(2);
  });

  it('gives the dictionary a long text without spaces in short pieces, each once, so its work grows with the text', () => {
    // Intl.Segmenter's time grows with the square of what it is given: what it is given is counted.
    const run = '東京は晴れです今日はいい天気ですね'.repeat(4_000);
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    try {
      expect(countWords(run)).toBeGreaterThan(4_000);
      const pieces = segment.mock.calls.map(([piece]) => piece.length);
      expect(Math.max(...pieces)).toBeLessThanOrEqual(1_000);
      expect(pieces.reduce((sum, length) => sum + length, 0)).toBe(run.length);
    } finally {
      segment.mockRestore();
    }
  });
});
