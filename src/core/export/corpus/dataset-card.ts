import type { CompositionTally } from './composition';
import { datasetTitle, oneLine } from './dataset-title';
import { cardLicense } from './hub-licenses';
import { jsonText } from './json-text';
import { compareText } from './markdown';
import type { ExportFormat, ExportInput } from './types';

/** A YAML scalar, double-quoted as JSON writes it. */
const yamlScalar = (text: string): string => jsonText(oneLine(text));

/** Hugging Face's size categories, by the number of transcripts. */
function sizeCategory(count: number): string {
  const bounds: Array<[number, string]> = [
    [1_000, 'n<1K'],
    [10_000, '1K<n<10K'],
    [100_000, '10K<n<100K'],
    [1_000_000, '100K<n<1M'],
    [10_000_000, '1M<n<10M'],
  ];
  return bounds.find(([limit]) => count < limit)?.[1] ?? '10M<n<100M';
}

/** A language tag as the service gives one: `en`, `pt-BR`, `zh-Hans` (BCP 47's form, case as given). */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/**
 * The transcripts' languages as a card lists them: `language` the ISO 639 codes (a tag's first part,
 * lower case), `language_details` the whole tags as the service gave them, case kept (`zh-Hans`),
 * when any says more than its code.
 */
function cardLanguages(tally: CompositionTally): { codes: string[]; details: string[] } {
  const tags = [...tally.byLanguage.keys()].filter((tag) => LANGUAGE_TAG.test(tag)).sort(compareText);
  const codes = [...new Set(tags.map((tag) => (tag.split('-')[0] ?? tag).toLowerCase()))].sort(compareText);
  return { codes, details: tags.some((tag) => tag.includes('-')) ? tags : [] };
}

/** A YAML list under `key`, each item a double-quoted scalar; nothing when empty. */
function yamlList(key: string, items: readonly string[]): string[] {
  return items.length === 0 ? [] : [`${key}:`, ...items.map((item) => `  - ${yamlScalar(item)}`)];
}

/**
 * The configurations `datasets.load_dataset(folder, name)` loads: only files that hold records, since
 * the library cannot read a JSON Lines file without one (it infers the features from the first lines,
 * and an empty file stops it). transcripts.jsonl, and chunks.jsonl when a transcript has passages;
 * a corpus without a transcript (a job paused after its list pages) loads index.csv, as CSV, when it
 * has a row; one without a video at all lists none. Only files of one kind are listed together: the
 * library takes one builder for every configuration, from the first one's files (datasets' load.py,
 * LocalDatasetModuleFactory), so a CSV listed after transcripts.jsonl would be read as JSON and fail.
 */
export function cardConfigs(
  input: ExportInput,
  formats: readonly ExportFormat[],
  tally: CompositionTally,
): Array<{ name: string; file: string }> {
  if (tally.transcripts === 0) {
    return input.manifest.counts.videos > 0 ? [{ name: 'index', file: 'index.csv' }] : [];
  }
  const withPassages = formats.includes('chunks') && tally.timedWithWords > 0;
  return [
    { name: 'transcripts', file: 'transcripts.jsonl' },
    ...(withPassages ? [{ name: 'chunks', file: 'chunks.jsonl' }] : []),
  ];
}

/**
 * The YAML front matter of a Hugging Face dataset card: its name, languages, license (an id of the
 * Hub's list, hub-licenses.ts), tasks and tags, size, and the files `datasets.load_dataset` reads as
 * configurations (cardConfigs). The tables load with `load_dataset("csv", data_files=…)`, as the
 * Files section says.
 */
export function frontMatter(
  input: ExportInput,
  formats: readonly ExportFormat[],
  tally: CompositionTally,
): string[] {
  const { codes, details } = cardLanguages(tally);
  const license = cardLicense(input.citation?.license);
  const chunks = formats.includes('chunks');
  const configs = cardConfigs(input, formats, tally);
  return [
    '---',
    `pretty_name: ${yamlScalar(datasetTitle(input))}`,
    ...yamlList('language', codes),
    ...yamlList('language_details', details),
    `license: ${yamlScalar(license.license)}`,
    ...('name' in license
      ? [`license_name: ${yamlScalar(license.name)}`, `license_link: ${yamlScalar(license.link)}`]
      : []),
    ...yamlList('task_categories', chunks ? ['text-generation', 'text-retrieval'] : ['text-generation']),
    ...yamlList('tags', ['transcripts', 'captions', 'video', 'text']),
    ...yamlList('size_categories', [sizeCategory(input.manifest.counts.ok)]),
    ...(configs.length === 0 ? [] : ['configs:']),
    ...configs.flatMap(({ name, file }, index) => [
      `  - config_name: ${yamlScalar(name)}`,
      `    data_files: ${yamlScalar(file)}`,
      ...(index === 0 ? ['    default: true'] : []),
    ]),
    '---',
    '',
  ];
}
