import { z } from 'zod';
import { corpusBuild, type CorpusBuild, type ExportInput } from '../export';

/**
 * What an export is written from besides the job's rows (its manifest, citation, formats, the job's
 * history, the datasheet's tallies: everything but the functions that read rows and release the
 * version), kept with the version it releases, with the build that wrote it. With the rows the
 * release keeps (store/versions.ts), that version can be written again byte for byte
 * (released-corpus.ts).
 */
export type InputData = Omit<ExportInput, 'videos' | 'memberships' | 'changes' | 'release'>;

/** The form of what is kept; another form is not read. */
const INPUTS_FORMAT = 1;

const RecordedSchema = z.object({
  format: z.literal(INPUTS_FORMAT),
  build: z.object({
    corpusVersion: z.number().int(),
    renderingVersion: z.number().int(),
    zlib: z.string(),
    icu: z.string().nullable(),
  }),
  // Written by recordedInputs from an ExportInput, and read back only as one (JSON keeps its fields
  // and their order, which the corpus's fingerprints hash).
  input: z.record(z.string(), z.unknown()),
});

/** The input's data and this build, as text to keep with the version it releases. */
export function recordedInputs(input: ExportInput): string {
  const { videos: _videos, memberships: _memberships, changes: _changes, release: _release, ...data } = input;
  return JSON.stringify({ format: INPUTS_FORMAT, build: corpusBuild(), input: data });
}

/** What was kept: the input's data and the build that wrote it; undefined when it is not in this form. */
export function readRecordedInputs(text: string): { build: CorpusBuild; input: InputData } | undefined {
  const parsed = RecordedSchema.safeParse(JSON.parse(text));
  if (!parsed.success) return undefined;
  return { build: parsed.data.build, input: parsed.data.input as unknown as InputData };
}
