/**
 * Properties that must hold whatever a user types or a misbehaving service sends: sources are parsed
 * without throwing and within the service's limits, and hostile titles, ids, texts and times never
 * reach a ZIP entry name, a CSV cell or a subtitle line in a harmful form.
 *
 * Seeded, so that a failure shows up on every run and can be replayed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCues } from '../../src/core/export/corpus/cues';
import { plainLines, renderSrt, renderTxt, renderVtt } from '../../src/core/export/corpus/formats';
import { entryPath, FILE_FORMATS, StemNamer } from '../../src/core/export/corpus/naming';
import { entryPathProblem, MAX_ENTRY_PATH_BYTES } from '../../src/core/export/zip/layout';
import { csvHeader, errorsCsv, INDEX_CSV_HEADER, indexRow } from '../../src/core/export/corpus/tables';
import type { ExportSegment, ExportVideo } from '../../src/core/export/corpus/types';
import {
  checkChannelInput,
  checkPlaylistId,
  checkSearchQuery,
  checkVideoUrl,
  PLAYLIST_PREFIXES,
} from '../../src/shared/limits';
import { checkSources, parseSource, type Source, type SourceKind } from '../../src/shared/sources';

const SEED = 20_240_607;
const runs = (numRuns: number) => ({ seed: SEED, numRuns });

// ---- Hostile text ----

const BIDI_CONTROLS = [
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
];

/** One piece of hostile text: any code point (lone surrogates included), controls, bidi, tricky ASCII. */
const hostileUnit = fc.oneof(
  fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint)),
  fc.integer({ min: 0, max: 0x9f }).map((code) => String.fromCharCode(code)),
  fc.constantFrom(...BIDI_CONTROLS.map((code) => String.fromCodePoint(code))),
  fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '\r\n', '\u2028', '\u0085', '\uFEFF', '"', ','),
  fc.constantFrom('.', '..', ' ', '/', '\\', ':', '*', '?', '<', '>', '|', '-->', '&', '&amp;'),
  fc.constantFrom('👨‍👩‍👧‍👦', '🎵', 'e\u0301', 'Ω', '日本', 'CON', 'nul.', 'LPT1', 'ſ', 'ß', 'İ'),
);
const hostileText = fc.oneof(
  fc.string({ unit: hostileUnit, maxLength: 40 }),
  fc.string({ unit: hostileUnit, minLength: 150, maxLength: 400 }),
);

const CONTROL = /\p{Cc}/u;
const BIDI = /\p{Bidi_Control}/u;
const PLAIN_VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const plainVideoId = fc.stringMatching(PLAIN_VIDEO_ID);

// ---- Sources ----

/** What an accepted source's id must look like, by kind. */
const ID_SHAPES: Record<SourceKind, (id: string) => boolean> = {
  video: (id) => PLAIN_VIDEO_ID.test(id),
  playlist: (id) => PLAYLIST_PREFIXES.some((prefix) => id.startsWith(prefix)) && /^[A-Za-z0-9_-]+$/.test(id),
  channel: (id) =>
    /^UC[A-Za-z0-9_-]{22}$/.test(id) ||
    /^@[A-Za-z0-9._-]{3,30}$/.test(id) ||
    /^https:\/\/www\.youtube\.com\/(c|user)\/[A-Za-z0-9._-]+$/.test(id),
  search: (id) => id === id.trim() && id.length > 0,
};

const LIMIT_CHECKS: Record<SourceKind, (id: string) => string | null> = {
  video: checkVideoUrl,
  playlist: checkPlaylistId,
  channel: checkChannelInput,
  search: checkSearchQuery,
};

const sourceText = fc.oneof(
  hostileText,
  fc
    .tuple(
      fc.constantFrom(
        '',
        'https://www.youtube.com/watch?v=',
        'youtu.be/',
        'youtube.com/playlist?list=',
        'youtube.com/@',
        'youtube.com/c/',
        'm.youtube.com/user/',
        'youtube.com/channel/UC',
        '@',
        'search:',
        'PL',
        'UC',
        'OL',
      ),
      fc.oneof(hostileText, fc.stringMatching(/^[A-Za-z0-9._-]{0,40}$/)),
    )
    .map(([prefix, rest]) => prefix + rest),
);

describe('source parsing', () => {
  it('never throws, and accepts only sources whose id has its kind’s shape and fits the limits', () => {
    fc.assert(
      fc.property(sourceText, (text) => {
        const check = parseSource(text);
        if (!check.ok) {
          expect(check.reason.length).toBeGreaterThan(0);
          return;
        }
        const { kind, id, input } = check.source;
        expect(input).toBe(text.trim());
        expect(ID_SHAPES[kind](id), `${kind} ${JSON.stringify(id)}`).toBe(true);
        expect(LIMIT_CHECKS[kind](id)).toBeNull();
        if (check.warning !== undefined) expect(kind).toBe('video');
      }),
      runs(3000),
    );
  });

  it('reports every repeat of a source, in any of its spellings, as already listed where it first was', () => {
    const spellings = fc.constantFrom(
      'dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ?t=1',
      'youtube.com/shorts/dQw4w9WgXcQ',
      'PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf',
      'youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf',
      '@SomeOne',
      '@someone',
      'youtube.com/@SOMEONE/videos',
      'youtube.com/c/Name',
      'youtube.com/user/name',
      'UCuAXFkgsw1L7xaCfnd5JJOw',
      'youtube.com/channel/UCuAXFkgsw1L7xaCfnd5JJOw',
      'search:cats',
      'SEARCH:  cats ',
      'not a source',
    );
    /** The same source for the service: handles and names ignore case, ids and queries do not. */
    const sameSource = (source: Source): string =>
      source.kind === 'channel' && !source.id.startsWith('UC')
        ? `${source.kind}:${source.id.toLowerCase()}`
        : `${source.kind}:${source.id}`;
    fc.assert(
      fc.property(fc.array(fc.oneof(spellings, sourceText), { maxLength: 12 }), (texts) => {
        const entries = texts.map((text, index) => ({ where: `line ${index + 1}`, text }));
        const { valid, invalid } = checkSources(entries);
        const firstAt = new Map<string, string>();
        for (const { where, text } of entries) {
          const check = parseSource(text);
          if (!check.ok) continue;
          const key = sameSource(check.source);
          const earlier = firstAt.get(key);
          if (earlier === undefined) {
            firstAt.set(key, where);
            expect(valid.some((entry) => entry.where === where)).toBe(true);
          } else {
            expect(invalid).toContainEqual({
              where,
              input: text.trim(),
              reason: `already listed at ${earlier}`,
            });
          }
        }
        expect(valid).toHaveLength(firstAt.size);
        expect(valid.length + invalid.length).toBe(texts.length);
      }),
      runs(500),
    );
  });
});

// ---- ZIP entry names ----

const FORBIDDEN_IN_NAMES = /[\\:*?"<>|]/;
const WINDOWS_RESERVED = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])$/i;
/** Ids whose every character may stand in a name as it is: they must appear exactly. */
const safeId = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', '_', '-', 'é', 'Ω', '日'),
  minLength: 1,
  maxLength: 12,
});

const isValidUtf8 = (text: string): boolean => Buffer.from(text, 'utf8').toString('utf8') === text;
const caseFolded = (text: string): string => text.toUpperCase().toLowerCase();

/** The rules a ZIP entry path breaks, by name. */
function pathProblems(path: string, format: string, videoId: string): string[] {
  const [folder, fileName = '', ...rest] = path.split('/');
  const idStandsAsIs =
    PLAIN_VIDEO_ID.test(videoId) || (videoId.normalize('NFC') === videoId && /^[\w\-éΩ日]+$/.test(videoId));
  const broken: Array<[string, boolean]> = [
    [`breaks the ZIP layout (${entryPathProblem(path)})`, entryPathProblem(path) !== undefined],
    ['not valid UTF-8', !isValidUtf8(path)],
    ['too long', Buffer.byteLength(path, 'utf8') > MAX_ENTRY_PATH_BYTES],
    ['control character', CONTROL.test(path)],
    ['bidirectional control', BIDI.test(path)],
    ['forbidden character', FORBIDDEN_IN_NAMES.test(path)],
    ['not <format>/<name>', folder !== format || rest.length > 0 || ['', '.', '..'].includes(fileName)],
    ['starts with a space or dot', /^[\s.]/u.test(fileName)],
    ['reserved Windows name', WINDOWS_RESERVED.test(fileName.split('.')[0]?.trimEnd() ?? '')],
    ['wrong ending', !fileName.endsWith(idStandsAsIs ? `[${videoId}].${format}` : `].${format}`)],
  ];
  return broken.filter(([, isBroken]) => isBroken).map(([rule]) => `${JSON.stringify(path)}: ${rule}`);
}

describe('ZIP entry names', () => {
  it('are safe, fit 200 bytes, end in [<id>].<ext> and are unique ignoring case, whatever the title, id and language', () => {
    const video = fc.record({
      title: hostileText,
      videoId: fc.oneof(plainVideoId, safeId, hostileText),
      language: fc.oneof(fc.constant('en'), hostileText),
      position: fc.option(fc.integer({ min: 1, max: 99_999 }), { nil: undefined }),
    });
    const template = fc.constantFrom(
      undefined,
      '{title}',
      '{language} - {title} [{video_id}]',
      '{position}. {title}',
    );
    fc.assert(
      fc.property(fc.array(video, { minLength: 1, maxLength: 6 }), template, (videos, nameTemplate) => {
        const namer = new StemNamer(nameTemplate);
        const stems = videos.map((fields, index) =>
          namer.stemFor({
            ...fields,
            number: fields.position ?? index + 1,
            source: 's',
            status: 'ok',
          } satisfies ExportVideo),
        );
        expect(new Set(stems.map(caseFolded)).size).toBe(stems.length);
        expect(new Set(stems.map((stem) => stem.toLowerCase())).size).toBe(stems.length);

        const problems = videos.flatMap(({ videoId }, index) =>
          FILE_FORMATS.flatMap((format) =>
            pathProblems(entryPath(format, stems[index] ?? ''), format, videoId),
          ),
        );
        expect(problems).toEqual([]);
      }),
      runs(400),
    );
  });
});

// ---- CSV cells ----

/** A tiny RFC 4180 reader: records end at LF, CRLF or a lone CR outside quotes, as Python's csv does. */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i++;
      records.push([...record, field]);
      record = [];
      field = '';
    } else field += char;
  }
  expect(quoted, 'an unclosed quote').toBe(false);
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];

/** The cell the rule promises: controls but tab, CR and LF removed, then an apostrophe before a trigger. */
function neutralised(text: string): string {
  const cleaned = [...text].filter((char) => !CONTROL.test(char) || '\t\r\n'.includes(char)).join('');
  return FORMULA_TRIGGERS.some((trigger) => cleaned.startsWith(trigger)) ? `'${cleaned}` : cleaned;
}

/**
 * An identifier cell as the rule promises: exact but for control characters (tab, CR, LF kept), unless
 * it could run as a formula: starting with = + tab or CR, or with @ or - followed by anything but
 * letters, digits, '_', '.' and '-'; such a cell is neutralised like free text.
 */
function identifier(text: string): string {
  const cleaned = [...text].filter((char) => !CONTROL.test(char) || '\t\r\n'.includes(char)).join('');
  const harmless = /^[@-][\p{L}\p{N}_.-]*$/u.test(cleaned);
  return ['=', '+', '\t', '\r'].some((trigger) => cleaned.startsWith(trigger)) ||
    (['@', '-'].some((trigger) => cleaned.startsWith(trigger)) && !harmless)
    ? neutralised(cleaned)
    : cleaned;
}

describe('CSV cells', () => {
  it('read back as the neutralised values: no formula trigger, no control character, structure intact', () => {
    const video = fc.record({
      videoId: fc.oneof(plainVideoId, hostileText),
      title: hostileText,
      source: hostileText,
      status: fc.constantFrom('ok', 'unavailable', 'failed'),
      language: hostileText,
      segmentCount: fc.nat(),
      position: fc.option(fc.integer({ min: 1, max: 5000 }), { nil: undefined }),
      httpStatus: fc.option(fc.integer({ min: 100, max: 599 }), { nil: undefined }),
      code: fc.option(hostileText, { nil: undefined }),
      message: fc.option(hostileText, { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(video, { maxLength: 5 }), (videos) => {
        const rows = (videos as ExportVideo[]).map((video) => indexRow(video, undefined));
        const index = readCsv([csvHeader(INDEX_CSV_HEADER), ...rows].join(''));
        const errors = readCsv([...errorsCsv(videos as ExportVideo[])].join(''));
        const failed = videos.filter((video) => video.status !== 'ok');
        const optional = (value: string | number | undefined, cell = neutralised) =>
          value === undefined ? '' : typeof value === 'number' ? String(value) : cell(value);

        // The columns these videos fill (those after position come from list pages and transcripts).
        expect(index.slice(1).map((row) => row.slice(0, 7))).toEqual(
          videos.map((video) => {
            const ok = video.status === 'ok';
            return [
              identifier(video.videoId),
              neutralised(video.title),
              ok ? identifier(video.language) : '',
              video.status,
              ok ? String(video.segmentCount) : '',
              identifier(video.source),
              optional(video.position),
            ];
          }),
        );
        expect(errors.slice(1)).toEqual(
          failed.map((video) => [
            identifier(video.videoId),
            video.status,
            optional(video.httpStatus),
            optional(video.code, identifier),
            optional(video.message),
            identifier(video.source),
          ]),
        );
        // The rule itself, apart from the values above: a cell may start with a trigger only when it is
        // an identifier that is no formula ('@name', '-abc'), never with = + tab or CR.
        const unsafeCells = [...index.slice(1), ...errors.slice(1)].flatMap((cells) =>
          cells.filter(
            (cell) =>
              /(?![\t\r\n])\p{Cc}/u.test(cell) ||
              (FORMULA_TRIGGERS.some((trigger) => cell.startsWith(trigger)) &&
                !/^[@-][\p{L}\p{N}_.-]*$/u.test(cell)),
          ),
        );
        expect(unsafeCells).toEqual([]);
      }),
      runs(400),
    );
  });
});

// ---- Cues ----

const TIMING = /^(\d{2,}):([0-5]\d):([0-5]\d)([,.])(\d{3}) --> (\d{2,}):([0-5]\d):([0-5]\d)([,.])(\d{3})$/;
const MAX_MS = 10 ** 7 * 1000;

/** The two times of a timing line in ms, or undefined when the line is not one. */
function timingOf(line: string, separator: ',' | '.'): [number, number] | undefined {
  const match = TIMING.exec(line);
  if (match === null || match[4] !== separator || match[9] !== separator) return undefined;
  const ms = (h: string, m: string, s: string, milli: string) =>
    ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(milli);
  const [, h1 = '', m1 = '', s1 = '', , ms1 = '', h2 = '', m2 = '', s2 = '', , ms2 = ''] = match;
  return [ms(h1, m1, s1, ms1), ms(h2, m2, s2, ms2)];
}

/** The blocks of a subtitle body, split at blank lines; each is [timing line, ...text lines]. */
function cueBlocks(body: string): string[][] {
  return body === ''
    ? []
    : body
        .replace(/\n$/, '')
        .split('\n\n')
        .map((block) => block.split('\n'));
}

/** What is wrong with the blocks of a subtitle body: a bad timing line, or a text line that is empty,
 *  could pass for a timing line, or holds an arrow or a control character. */
function timingProblems(blocks: string[][], separator: ',' | '.'): string[] {
  return blocks.flatMap(([timing = '', ...text]) => {
    const [start, end] = timingOf(timing, separator) ?? [Number.NaN, Number.NaN];
    const problems = start <= end && end <= MAX_MS ? [] : [`timing ${JSON.stringify(timing)}`];
    if (text.length === 0) problems.push(`no text after ${timing}`);
    for (const line of text) {
      if (line.trim() === '' || TIMING.test(line) || line.includes('-->') || CONTROL.test(line)) {
        problems.push(`text ${JSON.stringify(line)}`);
      }
    }
    return problems;
  });
}

describe('cue rendering', () => {
  const time = fc.oneof(
    fc.double({ min: 0, max: 7200, noNaN: true }),
    fc.double(), // NaN, infinities, -0, huge and tiny values included
    fc.constantFrom(-5, 1e12, 1.7e308, 10 ** 7, 10 ** 7 + 1e-3),
  );
  const segment = fc.record({ text: hostileText, start: time, duration: time });

  it('writes well-formed timing lines within bounds, and text that cannot pass for markup or timing', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments: ExportSegment[]) => {
        const cues = buildCues(segments);
        const allFinite = segments.every((s) => Number.isFinite(s.start) && Number.isFinite(s.duration));
        expect(cues !== undefined).toBe(allFinite);
        if (cues === undefined) return;
        // No cue of zero length, which WebVTT forbids and players skip.
        expect(cues.filter((cue) => cue.endMs <= cue.startMs)).toEqual([]);

        const srt = cueBlocks(renderSrt(cues));
        expect(srt.map(([number]) => number)).toEqual(srt.map((_, index) => String(index + 1)));
        expect(
          timingProblems(
            srt.map(([, ...rest]) => rest),
            ',',
          ),
        ).toEqual([]);

        const vtt = renderVtt(cues);
        expect(vtt.startsWith('WEBVTT\n')).toBe(true);
        const vttBlocks = cueBlocks(vtt.slice('WEBVTT\n'.length).replace(/^\n/, ''));
        expect(vttBlocks).toHaveLength(srt.length);
        expect(timingProblems(vttBlocks, '.')).toEqual([]);
        const unescaped = vttBlocks
          .flatMap(([, ...text]) => text)
          .filter((line) => line.includes('<') || line.replace(/&(amp|lt|gt);/g, '').includes('&'));
        expect(unescaped).toEqual([]);
      }),
      runs(300),
    );
  });

  it('writes one txt line per segment, without control characters but tabs', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segments: ExportSegment[]) => {
        const lines = renderTxt(plainLines(segments)).split('\n');
        expect(lines.pop()).toBe('');
        expect(lines).toHaveLength(segments.length);
        const unsafe = lines.filter((line) => /[\u2028\u2029]|(?!\t)\p{Cc}/u.test(line));
        expect(unsafe).toEqual([]);
      }),
      runs(400),
    );
  });
});
