import { PLACEHOLDER_AUTHOR } from './citation';
import { CHUNK_FIELDS, ERRORS_FIELDS, INDEX_FIELDS, TRANSCRIPT_FIELDS } from './corpus-schema';
import type { SchemaField } from './corpus-schema';
import { datasetTitle } from './dataset-title';
import { jsonText } from './json-text';
import type { JsonValue } from './json-text';
import type { ExportManifest } from './types';

/** RFC 3339 date-times, which Data Package's `created` must be. */
const RFC_3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function schemaOf(fields: readonly SchemaField[]): JsonValue {
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
  };
}

function csvResource(name: string, path: string, title: string, fields: readonly SchemaField[]): JsonValue {
  return {
    name,
    path,
    profile: 'tabular-data-resource',
    title,
    format: 'csv',
    mediatype: 'text/csv',
    encoding: 'utf-8',
    schema: schemaOf(fields),
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

/**
 * datapackage.json, a Frictionless Data Package (https://specs.frictionlessdata.io/data-package/):
 * the corpus's tables and JSON Lines files as resources with the types of their fields.
 */
export function renderDataPackage(manifest: ExportManifest, withChunks: boolean): string {
  const resources = [
    csvResource('index', 'index.csv', 'One row per video', INDEX_FIELDS),
    csvResource(
      'errors',
      'errors.csv',
      'One row per video not fetched, and per source not walked',
      ERRORS_FIELDS,
    ),
    jsonlResource('transcripts', 'transcripts.jsonl', 'One record per transcript', TRANSCRIPT_FIELDS),
    ...(withChunks ? [jsonlResource('chunks', 'chunks.jsonl', 'One record per passage', CHUNK_FIELDS)] : []),
  ];
  const descriptor: JsonValue = {
    profile: 'data-package',
    // A Data Package name holds lower-case letters, digits, '-', '.', '_' and '/' only: others become '-'.
    name: `scriptorium-job-${manifest.job_id.toLowerCase().replace(/[^-a-z0-9._/]/g, '-')}`,
    title: datasetTitle(manifest),
    description: 'Video transcripts collected with Scriptorium. README.md describes the collection.',
    ...(RFC_3339.test(manifest.finished_at) && { created: manifest.finished_at }),
    keywords: ['video transcripts', 'corpus'],
    contributors: [{ title: PLACEHOLDER_AUTHOR, role: 'author' }],
    sources: [{ title: 'Video Transcript Service' }],
    resources,
  };
  return `${jsonText(descriptor, '  ')}\n`;
}
