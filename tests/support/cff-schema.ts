import { createRequire } from 'node:module';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';

/** The Citation File Format 1.2.0 schema's own address, which the schema names itself by. */
const CFF_SCHEMA_ID = 'https://citation-file-format.github.io/1.2.0/schema.json';

let written: string | undefined;

/**
 * A file holding the Citation File Format 1.2.0 JSON schema, as the cffjs package (a dev dependency)
 * ships it, for check_metadata.py to validate CITATION.cff against. Its module is imported by path:
 * the package exports only its validators, which would hide the schema from Python.
 */
export async function cffSchemaPath(): Promise<string> {
  if (written !== undefined) return written;
  const entry = createRequire(import.meta.url).resolve('cffjs');
  const module: unknown = await import(pathToFileURL(join(dirname(entry), 'schema.js')).href);
  const { schema } = z.object({ schema: z.object({ $id: z.literal(CFF_SCHEMA_ID) }).loose() }).parse(module);
  written = join(mkdtempSync(join(tmpdir(), 'scriptorium-cff-')), 'schema.json');
  writeFileSync(written, JSON.stringify(schema));
  return written;
}
