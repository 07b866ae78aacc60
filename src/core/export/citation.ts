import { dateOf, datasetTitle, oneLine } from './dataset-title';
import { jsonText } from './json-text';
import type { ExportManifest } from './types';

/**
 * Who collected the corpus is not known to Scriptorium, yet CFF requires authors: this entity stands
 * in for them, and README.md and the file's comment ask the user to put their own name in its place.
 */
export const PLACEHOLDER_AUTHOR = 'Scriptorium user';
const TOOL_AUTHORS = 'The Scriptorium contributors';

/** A YAML scalar: every value is double-quoted, as JSON writes it (a double-quoted YAML string). */
const scalar = (text: string): string => jsonText(oneLine(text));

/**
 * CITATION.cff, Citation File Format 1.2.0 (https://citation-file-format.github.io/): the corpus as a
 * dataset, released on the job's finish date, with Scriptorium as a referenced software. Written by
 * hand as YAML whose every value is a double-quoted string, which YAML 1.1 and 1.2 readers take alike.
 */
export function renderCitation(manifest: ExportManifest): string {
  const released = dateOf(manifest.finished_at);
  const tool = manifest.tool;
  const lines = [
    '# Citation File Format 1.2.0 (https://citation-file-format.github.io/).',
    `# "${PLACEHOLDER_AUTHOR}" stands for whoever collected this corpus: put your name in its place`,
    '# (as family-names and given-names) before you share or cite it.',
    'cff-version: "1.2.0"',
    `message: ${scalar('If you use this corpus, please cite it using these metadata.')}`,
    'type: dataset',
    `title: ${scalar(datasetTitle(manifest))}`,
    `abstract: ${scalar(abstractOf(manifest))}`,
    'authors:',
    `  - name: ${scalar(PLACEHOLDER_AUTHOR)}`,
    ...(released === undefined ? [] : [`date-released: ${scalar(released)}`]),
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

function abstractOf(manifest: ExportManifest): string {
  const { videos, ok } = manifest.counts;
  const when = dateOf(manifest.finished_at) ?? manifest.finished_at;
  return (
    `Transcripts of ${ok} of ${videos} videos, fetched from the Video Transcript Service with ` +
    `${manifest.tool.name} ${manifest.tool.version}; the collection ${manifest.complete ? 'finished' : 'was last brought forward'} on ${when}.`
  );
}
