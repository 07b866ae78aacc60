import { spdxPage } from '../../../shared/citation';
import { CFF_LICENSE_IDS } from './cff-licenses';
import { datasetTitle, oneLine, releaseDate } from './dataset-title';
import { jsonText } from './json-text';
import { paragraphsOf, paragraphText } from './paragraphs';
import type { ExportAuthor, ExportInput, ExportManifest } from './types';

/**
 * CFF requires authors: when none was given (`export --author`, Authors in the Export dialog), this
 * entity stands in for whoever collected the corpus, and README.md says how to give one.
 */
export const PLACEHOLDER_AUTHOR = 'Scriptorium user';
const TOOL_AUTHORS = 'The Scriptorium contributors';

/** A YAML scalar: every value is double-quoted, as JSON writes it (a double-quoted YAML string). */
const scalar = (text: string): string => jsonText(oneLine(text));

/** An author as CFF's list item, its lines indented under `authors:`. */
function authorLines(author: ExportAuthor, indent: string): string[] {
  const fields = [
    ['family-names', author.familyNames],
    ['given-names', author.givenNames],
    ['orcid', author.orcid],
  ].filter((field): field is [string, string] => field[1] !== undefined);
  return fields.map(([key, value], index) => `${indent}${index === 0 ? '- ' : '  '}${key}: ${scalar(value)}`);
}

/**
 * CITATION.cff, Citation File Format 1.2.0 (https://citation-file-format.github.io/): the corpus as a
 * dataset of its version, released by the export that first wrote it, by the authors given (a
 * stand-in when none was), under the license given, with Scriptorium as a referenced software.
 * Written by hand as YAML whose every value is a double-quoted string, which YAML 1.1 and 1.2 readers
 * take alike.
 */
export function renderCitation(input: ExportInput): string {
  const { manifest, citation } = input;
  const released = releaseDate(manifest);
  const tool = manifest.tool;
  const authors = citation?.authors ?? [];
  const lines = [
    '# Citation File Format 1.2.0 (https://citation-file-format.github.io/).',
    ...(authors.length === 0
      ? [
          `# "${PLACEHOLDER_AUTHOR}" stands for whoever collected this corpus. Give your name when exporting`,
          '# (scriptorium export --author "Given Family", or Authors in the Export dialog): edited here, the',
          '# file would no longer match SHA256SUMS.',
        ]
      : []),
    'cff-version: "1.2.0"',
    `message: ${scalar('If you use this corpus, please cite it using these metadata.')}`,
    'type: dataset',
    `title: ${scalar(datasetTitle(input))}`,
    `version: ${scalar(String(manifest.version))}`,
    ...(released === undefined ? [] : [`date-released: ${scalar(released)}`]),
    ...abstractLines(citation?.description, manifest),
    'authors:',
    ...(authors.length === 0
      ? [`  - name: ${scalar(PLACEHOLDER_AUTHOR)}`]
      : authors.flatMap((author) => authorLines(author, '  '))),
    ...licenseLines(citation?.license),
    'keywords:',
    `  - ${scalar('video transcripts')}`,
    `  - ${scalar('corpus')}`,
    'references:',
    '  - type: software',
    `    title: ${scalar(tool.name)}`,
    `    version: ${scalar(tool.version)}`,
    '    authors:',
    `      - name: ${scalar(TOOL_AUTHORS)}`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * The license: its SPDX id when CFF 1.2.0's list has it, else the address of its page of the SPDX
 * License List in `license-url` (which the schema allows for licenses outside its list), the id in a
 * comment above it, so that every id `--license` takes gives a valid file.
 */
function licenseLines(license: string | undefined): string[] {
  if (license === undefined) return [];
  if (CFF_LICENSE_IDS.has(license)) return [`license: ${scalar(license)}`];
  return [
    `# License: ${license} (SPDX), which the license list of CFF 1.2.0 predates.`,
    `license-url: ${scalar(spdxPage(license))}`,
  ];
}

/**
 * The abstract: the description given, its paragraphs and lines kept (a literal block scalar, `|-`,
 * keeps every line break and adds none at the end); one line stays a quoted scalar. Without a
 * description, one made from the counts.
 */
function abstractLines(description: string | undefined, manifest: ExportManifest): string[] {
  const paragraphs = description === undefined ? [] : paragraphsOf(description);
  const [first] = paragraphs;
  if (first === undefined) return [`abstract: ${scalar(abstractOf(manifest))}`];
  if (paragraphs.length === 1 && first.length === 1) return [`abstract: ${scalar(first.join(''))}`];
  const lines = paragraphText(paragraphs).split('\n');
  return ['abstract: |-', ...lines.map((line) => (line === '' ? '' : `  ${line}`))];
}

function abstractOf(manifest: ExportManifest): string {
  const { videos, ok } = manifest.counts;
  const when = releaseDate(manifest) ?? manifest.finished_at;
  return (
    `Transcripts of ${ok} of ${videos} videos, fetched from the Video Transcript Service with ` +
    `${manifest.tool.name} ${manifest.tool.version}; version ${manifest.version} of the corpus ` +
    `was released${manifest.job_finished ? '' : ' before its job had finished'} on ${when}.`
  );
}
