import { spdxPage } from '../../../shared/citation';
import { PLACEHOLDER_AUTHOR } from './citation';
import { ENTRY_FIELDS } from './schema';
import type { SchemaField } from './schema';
import { datasetTitle } from './dataset-title';
import { jsonText } from './json-text';
import { paragraphsOf, paragraphText } from './paragraphs';
import type { JsonValue } from './json-text';
import type { ExportAuthor, ExportInput } from './types';

/** RFC 3339 date-times, which Data Package's `created` must be. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The keys that tie a table to index.csv's rows (Table Schema's primaryKey and foreignKeys). */
interface Keys {
  primaryKey?: string[];
  /** Columns whose values are index.csv's video_id. */
  referencesIndex?: boolean;
}

function schemaOf(fields: readonly SchemaField[], keys: Keys = {}): JsonValue {
  return {
    fields: fields.map((field) => ({
      name: field.name,
      type: field.type,
      ...(field.format !== undefined && { format: field.format }),
      description: field.description,
      ...(field.constraints !== undefined && { constraints: field.constraints }),
    })),
    // An empty CSV cell, or a JSON null, is a value that is not known.
    missingValues: [''],
    ...(keys.primaryKey !== undefined && { primaryKey: keys.primaryKey }),
    ...(keys.referencesIndex === true && {
      foreignKeys: [{ fields: ['video_id'], reference: { resource: 'index', fields: ['video_id'] } }],
    }),
  };
}

function csvResource(
  name: string,
  path: string,
  title: string,
  fields: readonly SchemaField[],
  keys?: Keys,
): JsonValue {
  return {
    name,
    path,
    profile: 'tabular-data-resource',
    title,
    format: 'csv',
    mediatype: 'text/csv',
    encoding: 'utf-8',
    schema: schemaOf(fields, keys),
  };
}

/** A JSON Lines file: not a tabular resource in Data Package 1.0 (which wants CSV), but with a schema of its records. */
function jsonlResource(name: string, path: string, title: string, fields: readonly SchemaField[]): JsonValue {
  return {
    name,
    path,
    profile: 'data-resource',
    title,
    format: 'jsonl',
    mediatype: 'application/jsonl',
    encoding: 'utf-8',
    schema: schemaOf(fields),
  };
}

function contributor(author: ExportAuthor): JsonValue {
  const name =
    author.givenNames === undefined ? author.familyNames : `${author.givenNames} ${author.familyNames}`;
  return { title: name, role: 'author', ...(author.orcid !== undefined && { path: author.orcid }) };
}

/** The description given, paragraphs kept as in CITATION.cff and README.md; without one, a line of ours. */
function describedAs(description: string | undefined): string {
  const paragraphs = description === undefined ? [] : paragraphsOf(description);
  return paragraphs.length > 0
    ? paragraphText(paragraphs)
    : 'Video transcripts collected with Scriptorium. README.md describes the collection.';
}

/**
 * datapackage.json, a Frictionless Data Package (https://specs.frictionlessdata.io/data-package/):
 * the corpus's tables and JSON Lines files as resources with the types of their fields, index.csv's
 * video_id as the key the other tables refer to, and the title, description, authors, license and
 * version (the same number as everywhere else).
 */
export function renderDataPackage(input: ExportInput, withChunks: boolean): string {
  const { manifest, citation } = input;
  const resources = [
    csvResource('index', 'index.csv', 'One row per video', ENTRY_FIELDS.index, { primaryKey: ['video_id'] }),
    csvResource(
      'errors',
      'errors.csv',
      'One row per video not fetched, and per source not walked',
      ENTRY_FIELDS.errors,
      { referencesIndex: true },
    ),
    csvResource('memberships', 'memberships.csv', 'One row per video per source', ENTRY_FIELDS.memberships, {
      primaryKey: ['video_id', 'source'],
      referencesIndex: true,
    }),
    csvResource('changes', 'changes.csv', 'What each version after the first changed', ENTRY_FIELDS.changes, {
      referencesIndex: true,
    }),
    jsonlResource('transcripts', 'transcripts.jsonl', 'One record per transcript', ENTRY_FIELDS.transcripts),
    ...(withChunks
      ? [jsonlResource('chunks', 'chunks.jsonl', 'One record per passage', ENTRY_FIELDS.chunks)]
      : []),
  ];
  const authors = citation?.authors ?? [];
  const descriptor: JsonValue = {
    profile: 'data-package',
    // A Data Package name holds lower-case letters, digits, '-', '.', '_' and '/' only: others become '-'.
    name: `scriptorium-job-${manifest.job_id.toLowerCase().replace(/[^-a-z0-9._/]/g, '-')}`,
    title: datasetTitle(input),
    description: describedAs(citation?.description),
    // The corpus's version as CITATION.cff and manifest.json give it: Data Package asks that a version
    // should (not must) follow Semantic Versioning, and one number everywhere names one artefact.
    version: String(manifest.version),
    ...(RFC_3339.test(manifest.finished_at) && { created: manifest.finished_at }),
    keywords: ['video transcripts', 'corpus'],
    contributors:
      authors.length === 0 ? [{ title: PLACEHOLDER_AUTHOR, role: 'author' }] : authors.map(contributor),
    ...(citation?.license !== undefined && {
      licenses: [
        {
          name: citation.license,
          path: spdxPage(citation.license),
          title: citation.license,
        },
      ],
    }),
    sources: [{ title: 'Video Transcript Service' }],
    resources,
  };
  return `${jsonText(descriptor, '  ')}\n`;
}
