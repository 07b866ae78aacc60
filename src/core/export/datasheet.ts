import { DURABILITY_PROMISE } from '../../shared/durability';
import { FILE_FORMATS } from '../../shared/vocabulary';
import { PLACEHOLDER_AUTHOR } from './citation';
import type { Chunking } from './chunks';
import { CHUNK_FIELDS, ERRORS_FIELDS, INDEX_FIELDS, TRANSCRIPT_FIELDS } from './corpus-schema';
import type { SchemaField } from './corpus-schema';
import { dateOf, datasetTitle, oneLine } from './dataset-title';
import { sortKeys } from './manifest';
import type { ExportFormat, ExportInput } from './types';

/**
 * Text from outside (sources, filters, option values, language codes) as a Markdown code span, so
 * that no character of it is read as Markdown or HTML; the fence is one backtick longer than the
 * longest run inside.
 */
function code(text: string): string {
  const line = oneLine(text);
  const longestRun = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const padding = line.startsWith('`') || line.endsWith('`') || line === '' ? ' ' : '';
  return `${fence}${padding}${line}${padding}${fence}`;
}

/**
 * Text from outside as ordinary Markdown text, on one line: the characters that can start emphasis,
 * code, links, HTML, character references, strikethrough or table cells are backslash-escaped.
 */
function escaped(text: string): string {
  return oneLine(text).replace(/[\\`*_[\]<>&!|~]/g, (char) => `\\${char}`);
}

/** Code-unit order, the same on every machine (unlike localeCompare). */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

const listOr = (items: string[], none: string): string[] => (items.length > 0 ? items : [none]);

function fieldList(fields: readonly SchemaField[]): string[] {
  return fields.map((field) => `  - \`${field.name}\` (${field.type}): ${field.description}`);
}

function collected(input: ExportInput): string[] {
  const { manifest } = input;
  const sources = manifest.sources.map((source) => `- ${code(source)}`);
  const skipped = manifest.skipped_sources.map(
    ({ source, reason }) => `- ${code(source)}, left out: ${escaped(reason)}`,
  );
  const failed = manifest.failed_sources.map(
    ({ source, message }) => `- ${code(source)}, could not be walked: ${escaped(message)}`,
  );
  const finished = manifest.complete
    ? `The job finished at ${manifest.finished_at}.`
    : `The job was last changed at ${manifest.finished_at}. It is not complete: some videos are still ` +
      'to fetch (it paused for credits or its budget) or some sources could not be walked.';
  return [
    '## What was collected',
    '',
    `Transcripts fetched from the Video Transcript Service by ${manifest.tool.name} ${manifest.tool.version} ` +
      `(job ${code(manifest.job_id)}), from these sources as typed:`,
    '',
    ...listOr(sources, '- (none)'),
    ...(skipped.length > 0 ? ['', 'Sources that were not used:', '', ...skipped] : []),
    ...(failed.length > 0 ? ['', 'Sources whose list could not be read:', '', ...failed] : []),
    '',
    finished,
    '',
  ];
}

function options(input: ExportInput): string[] {
  const entries = Object.entries(input.manifest.options).sort(([a], [b]) => compareText(a, b));
  const filters = (input.filters ?? []).map((filter) => `- ${code(filter)}`);
  return [
    '## Options and filters',
    '',
    ...listOr(
      entries.map(
        ([key, value]) =>
          `- ${code(key)}: ${code(value === undefined ? 'null' : JSON.stringify(sortKeys(value)))}`,
      ),
      '- (none recorded)',
    ),
    '',
    'Filters that chose which videos to fetch (a video they left out is `skipped`):',
    '',
    ...listOr(filters, '- none: every video the sources listed was fetched.'),
    '',
  ];
}

function counts(input: ExportInput): string[] {
  const { counts, credits_spent, credits_possible } = input.manifest;
  const languages = Object.entries(input.languages ?? {})
    .sort(([a, countA], [b, countB]) => countB - countA || compareText(a, b))
    .map(([language, count]) => `- ${code(language)}: ${plural(count, 'transcript')}`);
  const syncs = (input.syncs ?? []).map(
    ({ at, newVideos, credits }) =>
      `- ${escaped(at)}: ${plural(newVideos, 'new video')}, ${plural(credits, 'credit')}`,
  );
  const possibly =
    credits_possible > 0
      ? `, ${credits_possible} of them possibly charged: requests sent and never answered, which the service may or may not have counted`
      : '';
  return [
    '## Counts',
    '',
    '| status | videos |',
    '| --- | ---: |',
    `| ok (transcript fetched) | ${counts.ok} |`,
    `| unavailable (no transcript) | ${counts.unavailable} |`,
    `| failed | ${counts.failed} |`,
    `| pending (still to fetch) | ${counts.pending} |`,
    `| skipped (left out by a filter) | ${counts.skipped} |`,
    `| **all videos** | **${counts.videos}** |`,
    '',
    `Sources that could not be walked: ${counts.sources_failed}.`,
    '',
    'Transcripts by the language they came in:',
    '',
    ...listOr(languages, '- (not recorded)'),
    '',
    `Credits spent: ${credits_spent}${possibly}.`,
    '',
    DURABILITY_PROMISE,
    '',
    'Syncs (each brought the job up to date with its playlists and channels):',
    '',
    ...listOr(syncs, '- none.'),
    '',
  ];
}

function files(formats: readonly ExportFormat[], chunking: Chunking): string[] {
  const folders = FILE_FORMATS.filter((format) => formats.includes(format));
  const chunks = formats.includes('chunks');
  return [
    '## Files',
    '',
    '- `manifest.json`: the job, its options and counts, as data.',
    '- `index.csv`: one row per video, in the order of the job. Columns:',
    ...fieldList(INDEX_FIELDS),
    '- `errors.csv`: one row per video that is not ok, and one per playlist, channel or search that ' +
      'could not be walked (its text in place of a video ID). Columns:',
    ...fieldList(ERRORS_FIELDS),
    ...(folders.length > 0
      ? [
          `- ${folders.map((folder) => `\`${folder}/\``).join(', ')}: a file per transcript. Each name starts ` +
            "with the video's row number in index.csv, zero-padded to the width of the number of videos, one " +
            'numbering for the whole corpus, so that videos of different sources never share a number, and ' +
            'ends with `[video ID]`. srt and vtt exist only for transcripts with times.',
        ]
      : []),
    '- `transcripts.jsonl`: one JSON record per transcript (a json/ file holds the same record, laid out). ' +
      'Every field is in every record, null when unknown; times are seconds. Fields:',
    ...fieldList(TRANSCRIPT_FIELDS),
    ...(chunks
      ? [
          `- \`chunks.jsonl\`: passages of about ${chunking.targetSeconds} s for retrieval, overlapping by about ` +
            `${chunking.overlapSeconds} s, made of whole segments (only transcripts with times). A passage ` +
            `takes segments while it spans at most ${chunking.targetSeconds} s (a longer segment is a passage ` +
            'alone); the next one starts with the segments that start in its last ' +
            `${chunking.overlapSeconds} s. Fields:`,
          ...fieldList(CHUNK_FIELDS),
        ]
      : []),
    '- `README.md` (this file), `CITATION.cff` (how to cite), `datapackage.json` (the tables and records ' +
      'as a Frictionless Data Package), `SHA256SUMS` (the SHA-256 of every other file).',
    '',
    'Plain text (txt files, srt and vtt cues, the `text` fields) has the markup tags the service may send ' +
      '(`<b>`, `<i>`, `<font>`, WebVTT cue tags) removed and character references such as `&amp;` decoded ' +
      'once; the `segments` of the records keep each text exactly as the service sent it.',
    '',
  ];
}

function citing(input: ExportInput): string[] {
  const { manifest } = input;
  const year = dateOf(manifest.finished_at)?.slice(0, 4) ?? 'n.d.';
  return [
    '## How to cite',
    '',
    '`CITATION.cff` holds the citation in the Citation File Format; reference managers and GitHub read it. ' +
      `Its author, "${PLACEHOLDER_AUTHOR}", stands for whoever collected the corpus: put your name in its ` +
      'place there and below.',
    '',
    `> ${PLACEHOLDER_AUTHOR} (${year}). *${escaped(datasetTitle(manifest))}* [Data set]. ` +
      `Collected with ${escaped(manifest.tool.name)} ${escaped(manifest.tool.version)}.`,
    '',
  ];
}

const RIGHTS = [
  '## Rights and use',
  '',
  'The transcripts belong to their owners, the rights holders of the videos; collecting them gives no ' +
    'licence to them. This corpus is meant for research, under the law that applies to you (such as ' +
    'exceptions for text and data mining or quotation). Check what that law allows before you publish or ' +
    'share transcripts or passages of them.',
  '',
];

const CHECKING = [
  '## Checking the corpus',
  '',
  '`scriptorium verify` followed by the path of this ZIP checks every file against `SHA256SUMS`, and the ' +
    'counts of `manifest.json` against `index.csv`. Once unzipped, `sha256sum -c SHA256SUMS` checks the files.',
  '',
];

/**
 * README.md, the corpus's datasheet: what was collected, from which sources, when, with which options
 * and filters, the counts, languages, credits and syncs, what each file holds, how to cite it, and
 * whose the transcripts are. Everything comes from the job, nothing from the time of the export, so
 * that two exports of one job are identical.
 */
export function renderDatasheet(
  input: ExportInput,
  formats: readonly ExportFormat[],
  chunking: Chunking,
): string {
  const lines = [
    `# ${escaped(datasetTitle(input.manifest))}`,
    '',
    ...collected(input),
    ...options(input),
    ...counts(input),
    ...files(formats, chunking),
    ...citing(input),
    ...RIGHTS,
    ...CHECKING,
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
