import { z } from 'zod';
import { FiltersSchema, noFilters } from '../../shared/filters';
import type { Source } from '../../shared/sources';
import {
  CHUNK_SECONDS,
  CONCURRENCY,
  DEFAULT_CHUNKING,
  DEFAULT_LANGUAGES,
  ORIGINAL_TRACK,
  SOURCE_KINDS,
} from '../../shared/vocabulary';
import type { JobRecord } from '../store/jobs';
import type { JobOptions, JobSpec, RunSettings } from './types';

const SourceSchema = z.object({
  kind: z.enum(SOURCE_KINDS),
  id: z.string().min(1),
  input: z.string(),
}) satisfies z.ZodType<Source>;

export const JobOptionsSchema = z.object({
  langs: z.array(z.string().min(1)).default([DEFAULT_LANGUAGES]),
  includeTimestamp: z.boolean(),
  sendMetadata: z.boolean(),
  maxVideos: z.number().int().positive().optional(),
  filters: FiltersSchema.optional(),
}) satisfies z.ZodType<JobOptions, unknown>;

export const JobSpecSchema = z.object({
  sources: z.array(SourceSchema),
  skipped: z.array(z.object({ input: z.string(), reason: z.string() })),
  options: JobOptionsSchema,
});

export const SourcesSchema = z.array(SourceSchema);
export const SkippedSchema = JobSpecSchema.shape.skipped;

/**
 * Checks a spec from a face and fills in defaults (an empty language list means the original track;
 * filters that select everything are no filters, so that they do not make another job).
 */
export function parseJobSpec(spec: JobSpec): JobSpec {
  const parsed = JobSpecSchema.parse(spec);
  const langs = parsed.options.langs.length > 0 ? parsed.options.langs : [DEFAULT_LANGUAGES];
  const { filters, ...options } = parsed.options;
  return { ...parsed, options: { ...options, langs, ...(!noFilters(filters) && { filters }) } };
}

/** The requested_lang the cache stores for a preference entry: '' for the original track. */
export function cacheLang(lang: string): string {
  return lang === ORIGINAL_TRACK ? '' : lang.toLowerCase();
}

/** The lang parameter to send: none for the original track. */
export function requestLang(lang: string): string | undefined {
  return lang === ORIGINAL_TRACK ? undefined : lang;
}

/** A corpus's citation as parsed at the contract (shared/citation.ts) and kept with its job. */
const StoredCitationSchema = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  authors: z.array(
    z.object({ givenNames: z.string().optional(), familyNames: z.string(), orcid: z.string().optional() }),
  ),
  license: z.string().optional(),
});

/**
 * What the user chose for a job beyond its identity, kept with it so that a job runner (or the next
 * run) uses it: requests in flight, the formats of its ZIP, where it was exported, its name. (Its
 * budget has a column.)
 */
export const JobSettingsSchema = z.object({
  concurrency: z.number().int().min(CONCURRENCY.min).max(CONCURRENCY.max).default(CONCURRENCY.default),
  formats: z.array(z.string()).default([]),
  /** How chunks.jsonl cuts transcripts into passages, in seconds. */
  chunking: z
    .object({
      targetSeconds: z.number().int().min(CHUNK_SECONDS.min).max(CHUNK_SECONDS.max),
      overlapSeconds: z.number().int().nonnegative(),
    })
    .default(DEFAULT_CHUNKING),
  /** Where the job's corpus was last written (a path, never a download); the next export's default. */
  exportPath: z.string().nullable().default(null),
  /** What the user calls the job; null: it is named after what it holds. */
  name: z.string().nullable().default(null),
  /** Who made its corpus and under what terms, as last given to an export; null: never given. */
  citation: StoredCitationSchema.nullable().default(null),
});
export type JobSettings = z.output<typeof JobSettingsSchema>;

/** The settings stored with a job; a row of an older version reads as the defaults. */
export function parseJobSettings(json: string): JobSettings {
  const parsed = JobSettingsSchema.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : JobSettingsSchema.parse({});
}

/** What configure() changes of a job: any of its settings, and its budget (null: none). */
export type JobSettingsChange = Partial<JobSettings> & { budget?: number | null };

/** The job's settings with `change` applied; what it leaves out stays as it was. */
export function changedJobSettings(current: JobSettings, change: JobSettingsChange): JobSettings {
  return JobSettingsSchema.parse({
    concurrency: change.concurrency ?? current.concurrency,
    formats: change.formats ?? current.formats,
    chunking: change.chunking ?? current.chunking,
    exportPath: change.exportPath === undefined ? current.exportPath : change.exportPath,
    name: change.name === undefined ? current.name : change.name,
    citation: change.citation === undefined ? current.citation : change.citation,
  });
}

/** The numbers of RunSettings; the objects (signal, client, pacer) are passed through. */
const RunLimitsSchema = z.object({
  concurrency: z.number().int().min(CONCURRENCY.min).max(CONCURRENCY.max),
  budget: z.number().int().nonnegative().optional(),
});

/** A run's concurrency and budget: those it is given, else the job's own. */
export function runLimitsOf(
  job: Pick<JobRecord, 'settingsJson' | 'budget'>,
  settings: Pick<RunSettings, 'concurrency' | 'budget'>,
): { concurrency: number; budget?: number } {
  return RunLimitsSchema.parse({
    concurrency: settings.concurrency ?? parseJobSettings(job.settingsJson).concurrency,
    budget: settings.budget ?? job.budget ?? undefined,
  });
}
