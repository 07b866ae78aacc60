import { z } from 'zod';
import { AuthorLineSchema, LicenseSchema } from '../citation';
import {
  CONCURRENCY,
  DAILY_CREDIT_LIMIT,
  DEFAULT_LANGUAGES,
  defaultFormats,
  SYNC_EVERY_HOURS,
} from '../vocabulary';
import { KeepCurrentSettingsSchema } from './keep-current';
import { JobDraftSchema, type CommandSchemas } from './values';

export const JobDefaultsSchema = JobDraftSchema.omit({ sources: true });

/**
 * What a new job starts from until the user changes it in Settings: the stored Settings begin with
 * it, and the New job form falls back on it when Settings cannot be read.
 */
export const BUILT_IN_JOB_DEFAULTS: JobDefaults = {
  languages: DEFAULT_LANGUAGES,
  includeTimestamp: true,
  sendMetadata: true,
  maxVideos: null,
  budget: null,
  concurrency: CONCURRENCY.default,
  formats: defaultFormats(),
};

/**
 * What the Export dialog starts from for a job never exported with them: the authors (one a line,
 * "Given Family" or "Family, Given", then an ORCID iD if any) and the license (an SPDX id).
 */
export const CorpusDefaultsSchema = z.object({
  authors: z.array(z.string().max(300)).max(100),
  license: z.string().max(100).nullable(),
});

/** The same, checked as an export checks them: only such defaults are saved. */
const CorpusDefaultsInputSchema = z.object({
  authors: z.array(AuthorLineSchema).max(100),
  license: LicenseSchema.nullable(),
});

export const UpdateSettingsSchema = z.object({ check: z.boolean() });

export const SettingsSchema = z.object({
  /** The service's address; null until set. */
  serviceUrl: z.string().nullable(),
  /** Where the service's billing page is, for the link shown with a 402; null when unknown. */
  billingUrl: z.string().nullable(),
  defaults: JobDefaultsSchema,
  corpus: CorpusDefaultsSchema.default({ authors: [], license: null }),
  keepCurrent: KeepCurrentSettingsSchema.default({
    syncEveryHours: SYNC_EVERY_HOURS.default,
    dailyCreditLimit: DAILY_CREDIT_LIMIT.default,
  }),
  /** Settings' "Check for updates": the desktop app looks for a newer release by itself. */
  updates: UpdateSettingsSchema.default({ check: true }),
});

/** The service address requests go to now, and where it comes from (docs/product.md, one rule). */
export const AddressInUseSchema = z.object({
  url: z.string().nullable(),
  /** Saved in Settings; given when the app started (--base-url, TRANSCRIPT_API_BASE_URL); none. */
  from: z.enum(['settings', 'startup']).nullable(),
});

export const KeyStatusSchema = z.object({
  set: z.boolean(),
  /** Where the key is kept: the environment, encrypted on disk, or in memory for this session only. */
  storage: z.enum(['environment', 'encrypted', 'session']).nullable(),
  /** Plain words on the above, e.g. why the key is kept for this session only. */
  message: z.string(),
});

const HttpUrlSchema = z
  .string()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), 'an address starting with http:// or https://');

/** Settings, the service's address and the key. */
export const settingsCommands = {
  getSettings: { input: z.object({}), output: SettingsSchema },
  updateSettings: {
    input: z.object({
      serviceUrl: HttpUrlSchema.nullable().optional(),
      billingUrl: HttpUrlSchema.nullable().optional(),
      defaults: JobDefaultsSchema.partial().optional(),
      corpus: CorpusDefaultsInputSchema.optional(),
      keepCurrent: KeepCurrentSettingsSchema.partial().optional(),
      updates: UpdateSettingsSchema.optional(),
    }),
    output: SettingsSchema,
  },
  /** The service address in use and where it comes from. */
  addressInUse: { input: z.object({}), output: AddressInUseSchema },
  /** Whether a key is set and where it is kept; never the key. */
  keyStatus: { input: z.object({}), output: KeyStatusSchema },
  setKey: { input: z.object({ key: z.string().trim().min(1).max(512) }), output: KeyStatusSchema },
  removeKey: { input: z.object({}), output: KeyStatusSchema },
  /** Asks the service something free with the key and address set; never charges. */
  testConnection: {
    input: z.object({}),
    output: z.object({ ok: z.boolean(), message: z.string() }),
  },
  /**
   * Whether a run could start now: a key is set for the service address in force. Sends nothing;
   * fails with no_key or invalid_input, and the message saying what to set, when it could not.
   */
  checkService: { input: z.object({}), output: z.null() },
} as const satisfies CommandSchemas;

export type Settings = z.infer<typeof SettingsSchema>;
export type JobDefaults = z.infer<typeof JobDefaultsSchema>;
export type KeyStatus = z.infer<typeof KeyStatusSchema>;
export type AddressInUse = z.infer<typeof AddressInUseSchema>;
