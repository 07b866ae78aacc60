import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkChannelInput, checkPlaylistId, checkSearchQuery, checkVideoUrl } from '../../src/shared/limits';
import {
  checkSources,
  describeInvalid,
  describeWarning,
  parseSource,
  readSourceLines,
  type Source,
} from '../../src/shared/sources';
import type { SourceKind } from '../../src/shared/vocabulary';

const VIDEO = 'dQw4w9WgXcQ';
/** Any code point, lone surrogates included (fast-check's own 'binary' unit is slow to start). */
const anyCharacter = fc
  .integer({ min: 0, max: 0x10ffff })
  .map((codePoint) => String.fromCodePoint(codePoint));
const PLAYLIST = 'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf';
const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';

function expectSource(input: string, kind: SourceKind, id: string): void {
  expect(parseSource(input)).toEqual({ ok: true, source: { kind, id, input: input.trim() } });
}

function reasonFor(input: string): string {
  const check = parseSource(input);
  if (check.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused, got ${check.source.kind}`);
  return check.reason;
}

describe('parseSource: videos', () => {
  it.each([
    [VIDEO, VIDEO],
    [`  ${VIDEO}\t`, VIDEO],
    [`https://www.youtube.com/watch?v=${VIDEO}`, VIDEO],
    [`youtube.com/watch?feature=share&v=${VIDEO}&t=42s`, VIDEO],
    [`http://m.youtube.com/watch?v=${VIDEO}#t=30`, VIDEO],
    [`music.youtube.com/watch?v=${VIDEO}&list=RDAMVM${VIDEO}`, VIDEO],
    [`https://www.youtube.com/watch?v=${VIDEO}&list=${PLAYLIST}&index=2`, VIDEO],
    [`HTTPS://WWW.YOUTUBE.COM/watch?v=${VIDEO}`, VIDEO],
    [`https://youtu.be/${VIDEO}?si=AbCdEf`, VIDEO],
    [`youtu.be/${VIDEO}?list=${PLAYLIST}`, VIDEO],
    [`https://www.youtube.com/shorts/${VIDEO}/`, VIDEO],
    [`youtube.com/embed/${VIDEO}?start=10`, VIDEO],
    [`https://www.youtube-nocookie.com/embed/${VIDEO}`, VIDEO],
    [`www.youtube.com/live/${VIDEO}?feature=share`, VIDEO],
    [`https://www.youtube.com/v/${VIDEO}`, VIDEO],
  ])('%s', (input, id) => {
    expectSource(input, 'video', id);
  });

  const listWarning =
    'read as a video ID because it has 11 characters; playlist IDs are longer (18 or 34 characters for PL ones) ' +
    'and channel IDs have 24: paste the full URL if you meant a playlist or channel';

  it.each(['PLabcdefghi', 'UUabcdefghi', 'LLabcdefghi', 'FLabcdefghi', 'OLabcdefghi', 'UCabcdefghi'])(
    'reads the bare 11-character %s as a video, with a warning that it may be a list',
    (id) => {
      expect(parseSource(id)).toEqual({
        ok: true,
        source: { kind: 'video', id, input: id },
        warning: listWarning,
      });
    },
  );

  it('gives no warning for an 11-character ID that does not start like a list, or for a URL', () => {
    for (const input of [
      'PxAbcdefghi',
      'uCabcdefghi',
      'youtu.be/PLabcdefghi',
      'youtube.com/watch?v=UCabcdefghi',
    ]) {
      const check = parseSource(input);
      expect(check.ok && check.source.kind).toBe('video');
      expect(check).not.toHaveProperty('warning');
    }
  });
});

describe('parseSource: playlists', () => {
  it.each([
    [PLAYLIST, PLAYLIST],
    ['UUX6OQ3DkcsbYNE6H8uQQuVA', 'UUX6OQ3DkcsbYNE6H8uQQuVA'],
    ['LL', 'LL'],
    [`https://www.youtube.com/playlist?list=${PLAYLIST}`, PLAYLIST],
    [`youtube.com/playlist?si=x&list=${PLAYLIST}#comments`, PLAYLIST],
    [`m.youtube.com/watch?list=${PLAYLIST}`, PLAYLIST],
    [`https://www.youtube.com/embed/videoseries?list=${PLAYLIST}`, PLAYLIST],
    [
      `music.youtube.com/playlist?list=OLAK5uy_nMr9h2VlS-2PULZ-yn3UnWk8yrVc3hXlg`,
      'OLAK5uy_nMr9h2VlS-2PULZ-yn3UnWk8yrVc3hXlg',
    ],
  ])('%s', (input, id) => {
    expectSource(input, 'playlist', id);
  });
});

describe('parseSource: channels', () => {
  it.each([
    [CHANNEL, CHANNEL],
    ['@MrBeast', '@MrBeast'],
    ['@Mr.Beast_-9', '@Mr.Beast_-9'],
    [`https://www.youtube.com/channel/${CHANNEL}`, CHANNEL],
    [`youtube.com/channel/${CHANNEL}/videos`, CHANNEL],
    ['https://www.youtube.com/@MrBeast', '@MrBeast'],
    ['m.youtube.com/@MrBeast/streams/', '@MrBeast'],
    ['youtube.com/@MrBeast/shorts', '@MrBeast'],
    ['https://www.youtube.com/@caf%65', '@cafe'],
    ['https://www.youtube.com/c/SomeName/featured', 'https://www.youtube.com/c/SomeName'],
    ['youtube.com/c/videos', 'https://www.youtube.com/c/videos'],
    ['http://youtube.com/user/OldName/', 'https://www.youtube.com/user/OldName'],
    ['https://www.youtube.com/c/Caf%65', 'https://www.youtube.com/c/Cafe'],
  ])('%s', (input, id) => {
    expectSource(input, 'channel', id);
  });
});

describe('parseSource: searches', () => {
  it.each([
    ['search:lofi beats', 'lofi beats'],
    ['SEARCH:  cats and dogs  ', 'cats and dogs'],
    ['Search:https://youtu.be/x', 'https://youtu.be/x'],
  ])('%s', (input, id) => {
    expectSource(input, 'search', id);
  });
});

describe('parseSource: rejections', () => {
  it.each([
    ['', /the source is empty: expected a video ID or URL/],
    ['   ', /the source is empty/],
    [
      'hello world',
      /^not a video, playlist, channel or search: expected a video ID or URL, a playlist ID or URL, a channel @handle, URL or UC id, or search:<query>$/,
    ],
    ['dQw4w9WgXc', /not a video, playlist, channel or search/],
    ['youtube.com/watch?v=abc', /a video ID has 11 characters \(letters, digits, - and _\)/],
    [`youtu.be/${VIDEO}Q`, /a video ID has 11 characters/],
    ['youtube.com/shorts/short', /a video ID has 11 characters/],
    [`youtube.com/watch?v=dQw4w9WgXc!`, /a video ID has 11 characters/],
    ['youtube.com/watch', /watch address needs v=/],
    ['youtube.com/playlist', /playlist address needs list=/],
    ['https://www.youtube.com/playlist?list=RDdQw4w9WgXcQ', /playlist ID starts with PL, UU, LL, FL, OL/],
    ['youtu.be/', /youtu.be\/<video ID>/],
    ['vimeo.com/12345', /vimeo.com is not a YouTube address/],
    [`https://youtube.com.evil.example/watch?v=${VIDEO}`, /not a YouTube address/],
    [`ftp://youtube.com/watch?v=${VIDEO}`, /only http:\/\/ and https:\/\//],
    ['UCshort', /channel ID is UC followed by 22 characters/],
    [`youtube.com/channel/${CHANNEL}x`, /channel ID is UC followed by 22 characters/],
    ['@ab', /@handle has 3 to 30 characters/],
    [`@${'a'.repeat(31)}`, /@handle has 3 to 30 characters/],
    ['youtube.com/@MrBeast/about', /not a video, playlist or channel: expected watch\?v=/],
    ['youtube.com/feed/subscriptions', /not a video, playlist or channel/],
    ['youtube.com/c/bad%2Fname', /channel name has only ASCII letters, digits, ., _ and -$/],
    ['@bad handle!', /^a channel @handle has 3 to 30 characters: ASCII letters, digits, ., _ and -$/],
    [`youtube.com/c/${'a'.repeat(190)}`, /channel \(@handle, URL or UC id\) must have 1 to 200 characters/],
    ['youtube.com/@caf%ZZ', /badly encoded path/],
    ['search:', /search query must have 1 to 200 characters/],
    ['search:   ', /search query must have 1 to 200 characters/],
    [`search:${'q'.repeat(201)}`, /search query must have 1 to 200 characters/],
    [`PL${'a'.repeat(199)}`, /playlist ID must have 1 to 200 characters/],
    [`https://youtube.com/watch?v=${'a'.repeat(2100)}`, /too long: a source has at most 2048 characters/],
  ])('%s', (input, reason) => {
    expect(reasonFor(input)).toMatch(reason);
  });
});

describe('parseSource: handles and channel names the service refuses', () => {
  const accents =
    /^a (channel @handle|\/c\/ or \/user\/ channel name) takes only ASCII letters, digits, ., _ and -: the service refuses accented and other non-ASCII letters$/;

  it.each([
    '@café',
    '@café.ü_-9',
    '@日本語チャンネル',
    'https://www.youtube.com/@caf%C3%A9',
    'https://www.youtube.com/@café/featured',
    'youtube.com/c/Caf%C3%A9',
    'youtube.com/user/Müller',
  ])('%s', (input) => {
    expect(reasonFor(input)).toMatch(accents);
  });
});

describe('checkSources', () => {
  it('keeps valid sources in order and reports bad ones and repeats with their place', () => {
    const result = checkSources([
      { where: 'line 1', text: VIDEO },
      { where: 'line 2', text: `https://youtu.be/${VIDEO}` },
      { where: 'line 3', text: 'nonsense here' },
      { where: 'line 4', text: '@MrBeast' },
      { where: 'line 5', text: 'youtube.com/@mrbeast/videos' },
      { where: 'line 6', text: `search:${VIDEO}` },
      { where: 'line 7', text: PLAYLIST },
    ]);
    expect(result.valid.map((entry) => [entry.where, entry.source.kind, entry.source.id])).toEqual([
      ['line 1', 'video', VIDEO],
      ['line 4', 'channel', '@MrBeast'],
      ['line 6', 'search', VIDEO],
      ['line 7', 'playlist', PLAYLIST],
    ]);
    expect(result.invalid).toEqual([
      { where: 'line 2', input: `https://youtu.be/${VIDEO}`, reason: 'already listed at line 1' },
      { where: 'line 3', input: 'nonsense here', reason: expect.stringMatching(/^not a video/) },
      { where: 'line 5', input: 'youtube.com/@mrbeast/videos', reason: 'already listed at line 4' },
    ]);
    expect(result.warnings).toEqual([]);
  });

  it('lists the warnings of valid sources with their place, but not those of repeats', () => {
    const result = checkSources([
      { where: 'argument 1', text: ' PLabcdefghi ' },
      { where: 'argument 2', text: 'PLabcdefghi' },
      { where: 'argument 3', text: 'UCabcdefghi' },
    ]);
    expect(result.valid.map((entry) => entry.source.id)).toEqual(['PLabcdefghi', 'UCabcdefghi']);
    expect(result.warnings).toEqual([
      { where: 'argument 1', input: 'PLabcdefghi', warning: expect.stringMatching(/^read as a video ID/) },
      { where: 'argument 3', input: 'UCabcdefghi', warning: expect.stringMatching(/^read as a video ID/) },
    ]);
    expect(result.warnings.map(describeWarning)).toEqual([
      'argument 1: "PLabcdefghi" is read as a video ID because it has 11 characters; playlist IDs are longer (18 or 34 characters for PL ones) and channel IDs have 24: paste the full URL if you meant a playlist or channel',
      expect.stringMatching(/^argument 3: "UCabcdefghi" is read as a video ID/),
    ]);
  });

  it('never queues the same source twice, whatever the mix of forms', () => {
    const forms = fc.constantFrom(
      VIDEO,
      `youtu.be/${VIDEO}`,
      PLAYLIST,
      `youtube.com/playlist?list=${PLAYLIST}`,
      '@abc',
      '@ABC',
      'junk!',
    );
    fc.assert(
      fc.property(fc.array(forms, { maxLength: 10 }), (texts) => {
        const { valid, invalid } = checkSources(
          texts.map((text, index) => ({ where: `argument ${index + 1}`, text })),
        );
        const keys = valid.map(({ source }) => `${source.kind}:${source.id.toLowerCase()}`);
        expect(new Set(keys).size).toBe(keys.length);
        expect(valid.length + invalid.length).toBe(texts.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('describeInvalid', () => {
  it('names the place, the input and the reason in one line', () => {
    const [entry] = checkSources([{ where: 'line 3', text: 'youtube.com/watch?v=abc' }]).invalid;
    expect(entry && describeInvalid(entry)).toBe(
      'line 3: "youtube.com/watch?v=abc" is not a valid source: a video ID has 11 characters (letters, digits, - and _)',
    );
  });

  it('shortens a long input and escapes control characters', () => {
    const line = describeInvalid({
      where: 'argument 1',
      input: `a\u0007${'b'.repeat(3000)}`,
      reason: 'too long',
    });
    expect(line).toMatch(/^argument 1: "a\\u0007b+…" is not a valid source: too long$/);
    expect(line.length).toBeLessThan(160);
  });
});

describe('readSourceLines', () => {
  it('skips blanks and comments, keeps line numbers, handles CRLF and a BOM', () => {
    const file = `\uFEFF${VIDEO}\r\n\r\n# a comment\r\n  @MrBeast  \n   # indented comment\n\t\nsearch:x`;
    expect(readSourceLines(file)).toEqual([
      { line: 1, text: VIDEO },
      { line: 4, text: '@MrBeast' },
      { line: 7, text: 'search:x' },
    ]);
  });

  it('keeps the number of every line it returns', () => {
    const lineText = fc.oneof(
      fc.constantFrom('', '   ', '# note', '  #x', VIDEO, '@handle'),
      fc.string({ maxLength: 20 }).filter((text) => !/[\r\n]/.test(text)),
    );
    fc.assert(
      fc.property(fc.array(lineText, { maxLength: 15 }), fc.constantFrom('\n', '\r\n'), (lines, newline) => {
        const kept = lines.flatMap((text, index) => {
          const trimmed = text.trim();
          return trimmed === '' || trimmed.startsWith('#') ? [] : [{ line: index + 1, text: trimmed }];
        });
        expect(readSourceLines(lines.join(newline))).toEqual(kept);
      }),
      { numRuns: 300 },
    );
  });
});

// ---- Property tests over every URL form ----

const videoIdArb = fc.stringMatching(/^[A-Za-z0-9_-]{11}$/);
const playlistIdArb = fc
  .tuple(fc.constantFrom('PL', 'UU', 'LL', 'FL', 'OL'), fc.stringMatching(/^[A-Za-z0-9_-]{0,40}$/))
  .map(([prefix, rest]) => prefix + rest);
const channelIdArb = fc.stringMatching(/^[A-Za-z0-9_-]{22}$/).map((rest) => `UC${rest}`);
const handleCharacter = fc.stringMatching(/^[A-Za-z0-9._-]$/);
const handleArb = fc
  .array(handleCharacter, { minLength: 3, maxLength: 30 })
  .map((chars) => `@${chars.join('')}`);
const channelNameArb = fc
  .array(handleCharacter, { minLength: 1, maxLength: 40 })
  .map((chars) => chars.join(''))
  .filter((name) => !/^\.+$/.test(name)); // "." and ".." are path steps, not names

const schemeArb = fc.constantFrom('', 'http://', 'https://', 'HTTPS://');
const youtubeHostArb = fc.constantFrom(
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
  'WWW.YouTube.com',
);
const extraParamsArb = fc.array(
  fc
    .tuple(fc.stringMatching(/^[a-z]{1,8}$/), fc.stringMatching(/^[A-Za-z0-9_.-]{0,12}$/))
    .filter(([key]) => key !== 'v' && key !== 'list')
    .map(([key, value]) => `${key}=${value}`),
  { maxLength: 3 },
);
const fragmentArb = fc.constantFrom('', '#', '#t=30', '#comments');
const trailingSlashArb = fc.constantFrom('', '/', '//');

function address(scheme: string, host: string, path: string, params: string[], fragment: string): string {
  return `${scheme}${host}/${path}${params.length > 0 ? `?${params.join('&')}` : ''}${fragment}`;
}

describe('parseSource: properties', () => {
  it('finds exactly the video ID in every video URL form', () => {
    fc.assert(
      fc.property(
        videoIdArb,
        schemeArb,
        youtubeHostArb,
        fc.constantFrom('watch', 'youtu.be', 'shorts', 'embed', 'live', 'v'),
        extraParamsArb,
        extraParamsArb,
        fc.option(playlistIdArb),
        fragmentArb,
        trailingSlashArb,
        (id, scheme, host, form, before, after, list, fragment, slash) => {
          const listParam = list === null ? [] : [`list=${list}`];
          const input =
            form === 'watch'
              ? address(scheme, host, 'watch', [...before, ...listParam, `v=${id}`, ...after], fragment)
              : address(
                  scheme,
                  form === 'youtu.be' ? 'youtu.be' : host,
                  form === 'youtu.be' ? `${id}${slash}` : `${form}/${id}${slash}`,
                  [...before, ...listParam, ...after],
                  fragment,
                );
          expectSource(input, 'video', id);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('finds exactly the playlist ID in playlist URLs and bare playlist IDs', () => {
    fc.assert(
      fc.property(
        playlistIdArb,
        schemeArb,
        youtubeHostArb,
        fc.constantFrom('playlist', 'watch', 'bare'),
        extraParamsArb,
        extraParamsArb,
        fragmentArb,
        (id, scheme, host, form, before, after, fragment) => {
          if (form === 'bare') {
            fc.pre(id.length !== 11);
            expectSource(id, 'playlist', id);
            return;
          }
          expectSource(
            address(scheme, host, form, [...before, `list=${id}`, ...after], fragment),
            'playlist',
            id,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds the channel in every channel URL form, as an id channel/resolve accepts', () => {
    const channelPath = fc.oneof(
      channelIdArb.map((id) => ({ path: `channel/${id}`, id })),
      handleArb.map((handle) => ({ path: handle, id: handle })),
      fc.tuple(fc.constantFrom('c', 'user'), channelNameArb).map(([kind, name]) => ({
        path: `${kind}/${name}`,
        id: `https://www.youtube.com/${kind}/${name}`,
      })),
    );
    fc.assert(
      fc.property(
        channelPath,
        schemeArb,
        youtubeHostArb,
        fc.constantFrom('', '/videos', '/shorts', '/streams', '/featured'),
        trailingSlashArb,
        extraParamsArb,
        fragmentArb,
        ({ path, id }, scheme, host, tab, slash, params, fragment) => {
          expectSource(address(scheme, host, `${path}${tab}${slash}`, params, fragment), 'channel', id);
          // The id it yields reads back as the same channel.
          expect(parseSource(id)).toMatchObject({ ok: true, source: { kind: 'channel', id } });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('finds bare channel IDs and handles', () => {
    fc.assert(
      fc.property(fc.oneof(channelIdArb, handleArb), (id) => expectSource(id, 'channel', id)),
      { numRuns: 200 },
    );
  });

  it('reads search:<query> as the trimmed query', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('search:', 'SEARCH:', 'Search: '),
        fc.string({ minLength: 1, maxLength: 200 }),
        (prefix, query) => {
          fc.pre(query.trim() !== '');
          expectSource(`${prefix}${query}`, 'search', query.trim());
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws: either a source whose id the service accepts, or a reason', () => {
    const limitFor: Record<SourceKind, (id: string) => string | null> = {
      video: checkVideoUrl,
      playlist: checkPlaylistId,
      channel: checkChannelInput,
      search: checkSearchQuery,
    };
    const urlish = fc
      .tuple(
        fc.constantFrom(
          '',
          'https://',
          'youtube.com/',
          'youtu.be/',
          'www.youtube.com/watch?v=',
          '@',
          'search:',
          'PL',
          'UC',
        ),
        fc.string({ unit: anyCharacter, maxLength: 60 }),
      )
      .map(([prefix, rest]) => prefix + rest);
    const anything = fc.oneof(
      fc.string({ unit: anyCharacter, maxLength: 80 }),
      urlish,
      fc.stringMatching(/^[A-Za-z0-9_-]{1,30}$/),
    );
    fc.assert(
      fc.property(anything, (text) => {
        const check = parseSource(text);
        if (check.ok) {
          const source: Source = check.source;
          expect(limitFor[source.kind](source.id)).toBeNull();
          expect(source.input).toBe(text.trim());
        } else {
          expect(check.reason.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});
