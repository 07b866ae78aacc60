import { DURABILITY_PROMISE } from '../../../shared/durability';
import { FILE_FORMATS, SOURCE_KIND } from '../../../shared/vocabulary';
import { PLACEHOLDER_AUTHOR } from './citation';
import type { Chunking } from './chunks';
import type { CompositionTally, Share } from './composition';
import { ENTRY_FIELDS } from './schema';
import type { SchemaField } from './schema';
import { cardConfigs, frontMatter } from './dataset-card';
import { datasetTitle, releaseDate } from './dataset-title';
import { code, compareText, escaped, listOr, markdownLine, plural } from './markdown';
import { paragraphsOf } from './paragraphs';
import { serviceOf, sortKeys, wordCountOf } from './manifest';
import type { ExportAuthor, ExportFormat, ExportInput } from './types';

function fieldList(fields: readonly SchemaField[]): string[] {
  return fields.map((field) => `  - \`${field.name}\` (${field.type}): ${field.description}`);
}

const authorName = (author: ExportAuthor): string =>
  author.givenNames === undefined ? author.familyNames : `${author.givenNames} ${author.familyNames}`;

function heading(input: ExportInput): string[] {
  const { manifest } = input;
  const released = releaseDate(manifest);
  const state = manifest.job_finished
    ? `released on ${released ?? manifest.finished_at}`
    : `released on ${released ?? manifest.finished_at} while its job was under way (\`job_finished\` is false)`;
  const authors = input.citation?.authors ?? [];
  return [
    `# ${escaped(datasetTitle(input))}`,
    '',
    `Version ${manifest.version} of this corpus, ${state}. ` +
      (authors.length > 0
        ? `Collected by ${authors.map((author) => escaped(authorName(author))).join(', ')}.`
        : 'No author was given when it was exported.'),
    '',
  ];
}

function motivation(input: ExportInput): string[] {
  const description = input.citation?.description;
  const paragraphs = description === undefined ? [] : paragraphsOf(description);
  return [
    '## Motivation',
    '',
    paragraphs.length === 0
      ? 'No description was given (`scriptorium export --description`, or the Export dialog of the app).'
      : paragraphs.map((lines) => lines.map(markdownLine).join('\n')).join('\n\n'),
    '',
  ];
}

/** A share as table cells: videos, transcripts, hours (one decimal), words. */
function shareCells(share: Share): string {
  const hours = (share.seconds / 3600).toFixed(1);
  return `${share.videos} | ${share.transcripts} | ${hours} | ${share.words}`;
}

function composition(input: ExportInput, tally: CompositionTally): string[] {
  const { counts } = input.manifest;
  const sources = input.manifest.sources.map(
    (source, index) => `| ${code(source)} | ${shareCells(tally.bySource[index] ?? emptyShare)} |`,
  );
  const languages = [...tally.byLanguage.entries()]
    .sort(([a, shareA], [b, shareB]) => shareB.transcripts - shareA.transcripts || compareText(a, b))
    .map(
      ([language, share]) =>
        `| ${code(language === '' ? 'unknown' : language)} | ${share.transcripts} | ` +
        `${(share.seconds / 3600).toFixed(1)} | ${share.words} |`,
    );
  const filtered = (input.skippedByFilter ?? []).map(
    ({ reason, videos }) => `- ${code(reason)}: ${plural(videos, 'video')}`,
  );
  return [
    '## Composition',
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
    'By source, a video counted in every source that holds it (`memberships.csv` lists them); hours ' +
      "are how far each transcript's captions reach:",
    '',
    '| source | videos | transcripts | hours | words |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...sources,
    '',
    'By the language the transcripts came in:',
    '',
    '| language | transcripts | hours | words |',
    '| --- | ---: | ---: | ---: |',
    ...listOr(languages, '| (none) | 0 | 0.0 | 0 |'),
    '',
    `Sources that could not be walked: ${counts.sources_failed}.`,
    ...(filtered.length > 0
      ? ['', 'Videos each filter left out, as the corpus is now:', '', ...filtered]
      : []),
    '',
  ];
}

const emptyShare: Share = { videos: 0, transcripts: 0, seconds: 0, words: 0 };

/** The service's endpoints a job of these kinds of source uses. */
function endpoints(input: ExportInput): string {
  const kinds = new Set((input.sourceDetails ?? []).map((detail) => detail.kind));
  const used = ['`transcript` (one credit per transcript)'];
  if (kinds.has(SOURCE_KIND.playlist)) used.push('`playlist/videos` (one credit per page)');
  if (kinds.has(SOURCE_KIND.channel))
    used.push(
      '`channel/resolve` (free), `channel/videos` (one credit per page), `channel/latest` (free, for the exact publication times of the latest videos)',
    );
  if (kinds.has(SOURCE_KIND.search)) used.push('`search` (one credit)');
  return used.join(', ');
}

/** The service the transcripts came from: its API version and the addresses the job's runs used. */
function serviceLine(service: ReturnType<typeof serviceOf>): string {
  const where =
    service.addresses.length === 0
      ? 'no address was recorded (the job ran before Scriptorium recorded it, or sent no request of its own)'
      : `at ${service.addresses.map((address) => code(address)).join(', ')}`;
  const version =
    service.api_version === null
      ? 'its API version not recorded'
      : `API version ${code(service.api_version)}`;
  return `Service: the ${service.name}, ${version}, ${where}.`;
}

function collection(input: ExportInput): string[] {
  const { manifest } = input;
  const sources = manifest.sources.map((source) => `- ${code(source)}`);
  const skipped = manifest.skipped_sources.map(
    ({ source, reason }) => `- ${code(source)}, left out: ${escaped(reason)}`,
  );
  const failed = manifest.failed_sources.map(
    ({ source, message }) => `- ${code(source)}, could not be walked: ${escaped(message)}`,
  );
  const entries = Object.entries(manifest.options).sort(([a], [b]) => compareText(a, b));
  const { credits_spent, credits_possible } = manifest;
  const possibly =
    credits_possible > 0
      ? `, ${credits_possible} of them possibly charged: requests sent and never answered, which the service may or may not have counted`
      : '';
  const finished = manifest.job_finished
    ? `The job finished at ${manifest.finished_at} (\`job_finished\`: it ran to its end).`
    : `The job was last changed at ${manifest.finished_at}. It had not finished (\`job_finished\` is false): ` +
      'some videos are still to fetch (it paused for credits or its budget) or some sources could not be walked.';
  const transcribed = manifest.all_videos_transcribed
    ? 'Every video the selection kept has its transcript (`all_videos_transcribed`).'
    : 'Not every video the selection kept has its transcript (`all_videos_transcribed` is false): the counts ' +
      'above say how many are unavailable, failed or still to fetch.';
  return [
    '## Collection',
    '',
    `Transcripts fetched from the Video Transcript Service by ${manifest.tool.name} ${manifest.tool.version} ` +
      `(job ${code(manifest.job_id)}), from these sources as typed:`,
    '',
    ...listOr(sources, '- (none)'),
    ...(skipped.length > 0 ? ['', 'Sources that were not used:', '', ...skipped] : []),
    ...(failed.length > 0 ? ['', 'Sources whose list could not be read:', '', ...failed] : []),
    '',
    `${finished} ${transcribed}`,
    '',
    DURABILITY_PROMISE,
    '',
    serviceLine(serviceOf(manifest)),
    '',
    `Endpoints used: ${endpoints(input)}. Credits spent: ${credits_spent}${possibly}.`,
    '',
    'Options:',
    '',
    ...listOr(
      entries.map(
        ([key, value]) =>
          `- ${code(key)}: ${code(value === undefined ? 'null' : JSON.stringify(sortKeys(value)))}`,
      ),
      '- (none recorded)',
    ),
    '',
    ...selection(input),
  ];
}

/**
 * How the videos were chosen: the filters, judged per list as each list was read, and what syncs
 * added (with a cap or positions, a list can end up holding more videos than one reading takes).
 */
function selection(input: ExportInput): string[] {
  const filters = (input.filters ?? []).map((filter) => `- ${code(filter)}`);
  const syncs = input.syncs?.length ?? 0;
  const cap = input.manifest.options['max_videos'];
  const chosenBy = [
    ...(filters.length > 0 ? ['these filters'] : []),
    ...(typeof cap === 'number' ? [`the cap of ${cap} videos per list (\`max_videos\`)`] : []),
  ].join(' and ');
  return [
    'Filters that chose which videos to fetch, judged for each list as it was read: a video is `skipped` ' +
      "only when every list that holds it leaves it out (`errors.csv` gives each list's reason):",
    '',
    ...listOr(filters, '- none: every video the sources listed was fetched.'),
    '',
    ...(syncs > 0 ? [syncedSelection(syncs, chosenBy), ''] : []),
  ];
}

/** What the syncs added, and why a list can then hold more videos than one reading takes. */
function syncedSelection(syncs: number, chosenBy: string): string {
  const readAgain = `The lists were read again by ${plural(syncs, 'sync')}.`;
  if (chosenBy === '') return `${readAgain} Each sync added the videos new to a list.`;
  return (
    `${readAgain} Each sync added only the videos new to a list that ${chosenBy} took from the list as it ` +
    "was read then, positions counted on that reading (a channel's new uploads come first). It never added " +
    'a video an earlier reading had left out, and kept every video an earlier reading took, even one that new ' +
    'videos have pushed past those positions: a list can hold more videos than one reading takes (the counts ' +
    'by source say how many).'
  );
}

function preprocessing(input: ExportInput, formats: readonly ExportFormat[], chunking: Chunking): string[] {
  const word_count = wordCountOf(input.manifest);
  return [
    '## Preprocessing',
    '',
    `- \`word_count\` counts ${escaped(word_count.method)}; ICU ${code(word_count.icu ?? 'none')}. ` +
      'Another version of ICU may split unspaced scripts otherwise.',
    '- Plain text (txt files, srt and vtt cues, the `text` fields) has the markup tags the service may send ' +
      '(`<b>`, `<i>`, `<font>`, WebVTT cue tags) removed, character references such as `&amp;` decoded once, ' +
      'and control characters other than tabs and line breaks dropped. The `segments` of the records keep ' +
      'each text exactly as the service sent it.',
    "- Subtitle cues are timed to the millisecond. A cue lasts its segment's duration but is clipped where " +
      'the next cue starts when that falls within it; segments starting on the same millisecond share a ' +
      'cue, and a segment of no duration lasts until the next cue, or one second when it is the last.',
    ...(formats.includes('chunks')
      ? [
          `- Passages (chunks.jsonl) are made of whole segments, at most ${chunking.targetSeconds} s each, ` +
            `overlapping by about ${chunking.overlapSeconds} s.`,
        ]
      : []),
    '',
  ];
}

/** How `datasets` loads the corpus: the card's configurations (cardConfigs), and a table as CSV. */
function loading(input: ExportInput, formats: readonly ExportFormat[], tally: CompositionTally): string {
  const configs = cardConfigs(input, formats, tally).map(({ name, file }, index) =>
    index === 0 ? `\`load_dataset(folder)\` reads ${file}` : `\`load_dataset(folder, "${name}")\` ${file}`,
  );
  const none = configs.length === 0;
  return (
    "With Hugging Face's `datasets`, in the unzipped folder: " +
    (none
      ? 'the card lists no configuration, since this version holds no video; '
      : `${configs.join(', ')}, and `) +
    'a table loads as CSV: `load_dataset("csv", data_files=f"{folder}/index.csv")`.' +
    (tally.transcripts === 0 && !none
      ? ' This version holds no transcript, so transcripts.jsonl is empty and not listed: `datasets` cannot read a JSON Lines file without a record.'
      : '')
  );
}

function files(
  input: ExportInput,
  formats: readonly ExportFormat[],
  chunking: Chunking,
  tally: CompositionTally,
): string[] {
  const folders = FILE_FORMATS.filter((format) => formats.includes(format));
  const chunks = formats.includes('chunks');
  return [
    '## Files',
    '',
    '- `manifest.json`: the job, its options, counts and versions, as data.',
    '- `index.csv`: one row per video, by corpus number (the order in which the job first listed them). ' +
      'Columns:',
    ...fieldList(ENTRY_FIELDS.index),
    '- `errors.csv`: one row per video that is not ok, and one per playlist, channel or search that ' +
      'could not be walked (with no video ID). Columns:',
    ...fieldList(ENTRY_FIELDS.errors),
    '- `memberships.csv`: one row per video per source that holds it. Columns:',
    ...fieldList(ENTRY_FIELDS.memberships),
    '- `changes.csv`: what each version after the first added, retried or changed. Columns:',
    ...fieldList(ENTRY_FIELDS.changes),
    ...(folders.length > 0
      ? [
          `- ${folders.map((folder) => `\`${folder}/\``).join(', ')}: a file per transcript. Each name starts ` +
            "with the video's corpus number, six digits, fixed when the job first listed it and never " +
            'reused, so that a later version adds files and never renames one; it ends with `[video ID]`. ' +
            'srt and vtt exist only for transcripts with times.',
        ]
      : []),
    '- `transcripts.jsonl`: one JSON record per transcript (a json/ file holds the same record, laid out). ' +
      'Every field is in every record, null when unknown; times are seconds. Fields:',
    ...fieldList(ENTRY_FIELDS.transcripts),
    ...(chunks
      ? [
          `- \`chunks.jsonl\`: passages of about ${chunking.targetSeconds} s for retrieval, overlapping by about ` +
            `${chunking.overlapSeconds} s, made of whole segments (only transcripts with times). A passage ` +
            `takes segments while it spans at most ${chunking.targetSeconds} s (a longer segment is a passage ` +
            'alone); the next one starts with the segments that start in its last ' +
            `${chunking.overlapSeconds} s. Fields:`,
          ...fieldList(ENTRY_FIELDS.chunks),
        ]
      : []),
    '- `README.md` (this file), `CITATION.cff` (how to cite), `datapackage.json` (the tables and records ' +
      'as a Frictionless Data Package, with their keys), `SHA256SUMS` (the SHA-256 of every other file).',
    '',
    loading(input, formats, tally),
    '',
  ];
}

const USES = [
  '## Uses and caveats',
  '',
  '- Whether a transcript comes from captions written by people or made automatically is not known: the ' +
    'service does not say.',
  '- Publication dates are intervals: `published_from` and `published_to` hold what the list page allows. ' +
    'A date the page gave is exact (both ends equal); "3 weeks ago" means at least 3 and less than 4 weeks ' +
    "before the records' `listed_at` (when that page was read), a month counting 28 to 31 days and a year " +
    '365 to 366. The date filters keep a video ' +
    'whose whole interval lies in their window, unless the corpus was made with `--published-overlap`.',
  "- A video's list data (position, channel, date, length, views) comes from the first list that holds it, " +
    'as the page that first numbered it gave it; a sync changes no earlier record. index.csv and ' +
    'memberships.csv give the position of the latest reading of each list, each position once, with the ' +
    "time of the reading that put it there (`listed_at`): a channel's new uploads move its earlier videos down, and a video " +
    'a list read whole no longer holds has no position there.',
  '- Transcripts are what the service returned when they were fetched (`fetched_at`); a video may have ' +
    'changed since.',
  '',
];

function distribution(input: ExportInput): string[] {
  const license = input.citation?.license;
  return [
    '## Distribution',
    '',
    'The transcripts belong to their owners, the rights holders of the videos; collecting them gives no ' +
      'licence to them. This corpus is meant for research, under the law that applies to you (such as ' +
      'exceptions for text and data mining or quotation). Check what that law allows before you publish or ' +
      'share transcripts or passages of them.',
    '',
    license === undefined
      ? 'No license was given for what the collectors made (the selection, the tables, this datasheet).'
      : `The collectors give what they made (the selection, the tables, this datasheet) under ${code(license)}; ` +
        'that license does not extend to the transcripts.',
    '',
  ];
}

function maintenance(input: ExportInput): string[] {
  const versions = input.manifest.versions.map(
    ({ version, releasedAt, added, retried, changed, metadata = 0 }) =>
      `- version ${version}, released ${escaped(releasedAt)}: ` +
      (version === 1
        ? `${plural(added, 'video')}`
        : `${plural(added, 'video')} added, ${retried} retried, ${changed} changed` +
          (metadata > 0 ? `, ${plural(metadata, 'metadata change')}` : '')),
  );
  const syncs = (input.syncs ?? []).map(
    ({ at, newVideos, credits }) =>
      `- ${escaped(at)}: ${plural(newVideos, 'new video')}, ${plural(credits, 'credit')}`,
  );
  return [
    '## Maintenance',
    '',
    '`scriptorium sync` brings the job up to date with its playlists and channels, buying only what is ' +
      'new. An export whose corpus would differ from the last version in any byte (new videos, a retry that ' +
      'changed something, another title, description, authors, license or formats) is the next version, ' +
      'released when it is exported; an export that changes nothing writes the same version again, byte for ' +
      'byte. A new version adds files and rows and never renames a file: `changes.csv` lists what each ' +
      'version added, retried or changed, and what of the corpus itself (`metadata`). The credits and syncs ' +
      'this datasheet gives are those of this version, as it was released.',
    '',
    'Versions:',
    '',
    ...listOr(versions, `- version ${input.manifest.version}, not released yet: its job has not completed.`),
    '',
    'Syncs:',
    '',
    ...listOr(syncs, '- none.'),
    '',
    '`scriptorium verify` followed by the path of this ZIP checks every file against `SHA256SUMS`, and the ' +
      'counts of `manifest.json` against `index.csv`, however the ZIP was packed again. Once unzipped, ' +
      '`sha256sum -c SHA256SUMS` checks the files.',
    '',
  ];
}

function citing(input: ExportInput): string[] {
  const { manifest } = input;
  const year = releaseDate(manifest)?.slice(0, 4) ?? 'n.d.';
  const authors = input.citation?.authors ?? [];
  const names = authors.length === 0 ? PLACEHOLDER_AUTHOR : authors.map(authorName).join(', ');
  return [
    '## How to cite',
    '',
    '`CITATION.cff` holds the citation in the Citation File Format; reference managers and GitHub read it.',
    ...(authors.length === 0
      ? [
          '',
          `Its author, "${PLACEHOLDER_AUTHOR}", stands for whoever collected the corpus. Give your name when ` +
            'exporting (`scriptorium export --author "Given Family" --orcid 0000-0000-0000-0000`, or Authors ' +
            'in the Export dialog): edited afterwards, the file would no longer match `SHA256SUMS`.',
        ]
      : []),
    '',
    `> ${escaped(names)} (${year}). *${escaped(datasetTitle(input))}* (Version ${manifest.version}) [Data set]. ` +
      `Collected with ${escaped(manifest.tool.name)} ${escaped(manifest.tool.version)}.`,
    '',
  ];
}

/**
 * README.md, the corpus's datasheet (after "Datasheets for Datasets"), opening with the YAML front
 * matter of a Hugging Face dataset card: motivation, composition (by status, source and language),
 * collection, preprocessing, files, uses and caveats, distribution, maintenance, and how to cite.
 * It describes the corpus as it is now, from the job and from `tally` (gathered as the transcripts
 * were written); nothing comes from the time of the export, so two exports of one version are the same.
 */
export function renderDatasheet(
  input: ExportInput,
  formats: readonly ExportFormat[],
  chunking: Chunking,
  tally: CompositionTally,
): string {
  const lines = [
    ...frontMatter(input, formats, tally),
    ...heading(input),
    ...motivation(input),
    ...composition(input, tally),
    ...collection(input),
    ...preprocessing(input, formats, chunking),
    ...files(input, formats, chunking, tally),
    ...USES,
    ...distribution(input),
    ...maintenance(input),
    ...citing(input),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
