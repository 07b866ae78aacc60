import { describe, expect, it } from 'vitest';
import { parseJobRequest, type RawJobOptions } from '../../src/cli/job-options';
import { DEFAULT_SETTINGS } from '../../src/core/app/settings';
import { JobSettingsSchema } from '../../src/core/engine/spec';
import { DEFAULT_CHUNKING as EXPORT_DEFAULT_CHUNKING } from '../../src/core/export/corpus/chunks';
import { FALLBACK_DEFAULTS, fieldsOf, readOptionFields } from '../../src/renderer/src/lib/job-options';
import { parseDailyLimit } from '../../src/cli/sync-all';
import {
  commands,
  JobDraftSchema,
  KeepCurrentSettingsSchema,
  SettingsSchema,
  type JobDraft,
} from '../../src/shared/contract';
import {
  CHUNK_SECONDS,
  CONCURRENCY,
  DAILY_CREDIT_LIMIT,
  DEFAULT_CHUNKING,
  DEFAULT_LANGUAGES,
  defaultFormats,
  SYNC_EVERY_HOURS,
} from '../../src/shared/vocabulary';

// Every layer that reads a job's concurrency and chunking takes its bounds and defaults from
// shared/vocabulary.ts: each is asked here, at the edges, whether it accepts what the others accept.

type Options = { concurrency?: number; chunkSeconds?: number; chunkOverlap?: number };

/** Whether each layer accepts these options. */
const layers: Record<string, (options: Options) => boolean> = {
  'the CLI': (options) => {
    const raw: RawJobOptions = {
      timestamps: true,
      metadata: true,
      formats: 'txt,chunks',
      ...(options.concurrency !== undefined && { concurrency: String(options.concurrency) }),
      ...(options.chunkSeconds !== undefined && { chunkSeconds: String(options.chunkSeconds) }),
      ...(options.chunkOverlap !== undefined && { chunkOverlap: String(options.chunkOverlap) }),
    };
    try {
      parseJobRequest(['dQw4w9WgXcQ'], raw);
      return true;
    } catch {
      return false;
    }
  },
  "the window's form": (options) =>
    readOptionFields({
      ...fieldsOf(FALLBACK_DEFAULTS),
      formats: ['txt', 'chunks'],
      ...(options.concurrency !== undefined && { concurrency: String(options.concurrency) }),
      ...(options.chunkSeconds !== undefined && { chunkSeconds: String(options.chunkSeconds) }),
      ...(options.chunkOverlap !== undefined && { chunkOverlap: String(options.chunkOverlap) }),
    }).ok,
  'the contract': (options) =>
    JobDraftSchema.safeParse({
      ...draft(),
      ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
      chunking: {
        targetSeconds: options.chunkSeconds ?? DEFAULT_CHUNKING.targetSeconds,
        overlapSeconds: options.chunkOverlap ?? DEFAULT_CHUNKING.overlapSeconds,
      },
    }).success,
  "the engine's stored settings": (options) =>
    JobSettingsSchema.safeParse({
      ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
      chunking: {
        targetSeconds: options.chunkSeconds ?? DEFAULT_CHUNKING.targetSeconds,
        overlapSeconds: options.chunkOverlap ?? DEFAULT_CHUNKING.overlapSeconds,
      },
    }).success,
};

function draft(): JobDraft {
  return {
    sources: [{ where: 'line 1', text: 'dQw4w9WgXcQ' }],
    languages: DEFAULT_LANGUAGES,
    includeTimestamp: true,
    sendMetadata: true,
    maxVideos: null,
    budget: null,
    concurrency: CONCURRENCY.default,
    formats: ['txt', 'chunks'],
  };
}

describe.each(Object.entries(layers))('%s', (_layer, accepts) => {
  it('accepts the concurrency from its least to its most, and nothing beyond', () => {
    expect(accepts({ concurrency: CONCURRENCY.min })).toBe(true);
    expect(accepts({ concurrency: CONCURRENCY.max })).toBe(true);
    expect(accepts({ concurrency: CONCURRENCY.min - 1 })).toBe(false);
    expect(accepts({ concurrency: CONCURRENCY.max + 1 })).toBe(false);
  });

  it('accepts passages from the shortest to the longest, and nothing beyond', () => {
    expect(accepts({ chunkSeconds: CHUNK_SECONDS.min, chunkOverlap: 0 })).toBe(true);
    expect(accepts({ chunkSeconds: CHUNK_SECONDS.max })).toBe(true);
    expect(accepts({ chunkSeconds: CHUNK_SECONDS.min - 1, chunkOverlap: 0 })).toBe(false);
    expect(accepts({ chunkSeconds: CHUNK_SECONDS.max + 1 })).toBe(false);
  });
});

describe('the defaults', () => {
  it('are the same wherever a job is made without them', () => {
    const cli = parseJobRequest(['dQw4w9WgXcQ'], { timestamps: true, metadata: true }).draft;
    const cliChunks = parseJobRequest(['dQw4w9WgXcQ'], {
      timestamps: true,
      metadata: true,
      chunkOverlap: '0',
    }).draft.chunking;
    const form = fieldsOf(FALLBACK_DEFAULTS);
    const stored = JobSettingsSchema.parse({});
    const expected = {
      languages: DEFAULT_LANGUAGES,
      concurrency: CONCURRENCY.default,
      formats: defaultFormats(),
    };

    expect({ languages: cli.languages, concurrency: cli.concurrency, formats: cli.formats }).toEqual(
      expected,
    );
    expect(cliChunks?.targetSeconds).toBe(DEFAULT_CHUNKING.targetSeconds);
    expect(DEFAULT_SETTINGS.defaults).toMatchObject(expected);
    expect(FALLBACK_DEFAULTS).toMatchObject(expected);
    expect([form.chunkSeconds, form.chunkOverlap]).toEqual([
      String(DEFAULT_CHUNKING.targetSeconds),
      String(DEFAULT_CHUNKING.overlapSeconds),
    ]);
    expect({ concurrency: stored.concurrency, chunking: stored.chunking }).toEqual({
      concurrency: CONCURRENCY.default,
      chunking: DEFAULT_CHUNKING,
    });
    expect(EXPORT_DEFAULT_CHUNKING).toEqual(DEFAULT_CHUNKING);
  });
});

describe('the Keep current settings', () => {
  const dailyLimitLayers: Record<string, (credits: number) => boolean> = {
    "the CLI's --daily-limit": (credits) => {
      try {
        parseDailyLimit(String(credits));
        return true;
      } catch {
        return false;
      }
    },
    "the contract's Settings": (credits) =>
      KeepCurrentSettingsSchema.safeParse({ syncEveryHours: 24, dailyCreditLimit: credits }).success,
    "the contract's autoSyncJob": (credits) =>
      commands.autoSyncJob.input.safeParse({ jobId: 1, dailyLimit: credits }).success,
  };

  it.each(Object.entries(dailyLimitLayers))(
    '%s takes a daily credit limit from its least to its most, and nothing beyond',
    (_layer, accepts) => {
      const { min, max } = DAILY_CREDIT_LIMIT;
      expect([min - 1, min, max, max + 1, 2.5].map(accepts)).toEqual([false, true, true, false, false]);
    },
  );

  it('take "Sync every (hours)" from its least to its most, and nothing beyond', () => {
    const { min, max } = SYNC_EVERY_HOURS;
    const accepts = (hours: number) =>
      KeepCurrentSettingsSchema.safeParse({ syncEveryHours: hours, dailyCreditLimit: null }).success;
    expect([min - 1, min, max, max + 1, 1.5].map(accepts)).toEqual([false, true, true, false, false]);
  });

  it("default to the vocabulary's, also for settings saved before they existed", () => {
    const defaults = {
      syncEveryHours: SYNC_EVERY_HOURS.default,
      dailyCreditLimit: DAILY_CREDIT_LIMIT.default,
    };
    expect(DEFAULT_SETTINGS.keepCurrent).toEqual(defaults);
    const { serviceUrl, billingUrl, defaults: jobDefaults, corpus } = DEFAULT_SETTINGS;
    const savedBefore = { serviceUrl, billingUrl, defaults: jobDefaults, corpus };
    expect(SettingsSchema.parse(savedBefore).keepCurrent).toEqual(defaults);
  });
});
