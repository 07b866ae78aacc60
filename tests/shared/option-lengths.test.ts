import { describe, expect, it } from 'vitest';
import { parseJobRequest, type RawJobOptions } from '../../src/cli/job-options';
import { fieldsOf, readOptionFields } from '../../src/renderer/src/lib/job-options';
import { NO_SELECTION, readSelectionFields } from '../../src/renderer/src/lib/selection-fields';
import { BUILT_IN_JOB_DEFAULTS, JobDraftSchema, type JobDraft } from '../../src/shared/contract';
import { FILTER_LIMITS } from '../../src/shared/filters';
import { MAX_LANGUAGE_LIST_CHARS } from '../../src/shared/limits';

// The longest value of each option a job takes, asked of every layer at its edge: the CLI and the
// window refuse one character more with the option's name (or field) and its limit, before the
// contract would refuse it with words of its own.

/** `count` distinct two-letter language codes ("aa,ba,ca…"), 3 × count - 1 characters in all. */
function languages(count: number): string {
  return Array.from(
    { length: count },
    (_, i) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
  ).join(',');
}

function cli(raw: Partial<RawJobOptions>): string | null {
  try {
    parseJobRequest(['dQw4w9WgXcQ'], { timestamps: true, metadata: true, ...raw });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function draft(change: Partial<JobDraft>): boolean {
  return JobDraftSchema.safeParse({
    sources: [{ where: 'line 1', text: 'dQw4w9WgXcQ' }],
    languages: 'orig',
    includeTimestamp: true,
    sendMetadata: true,
    maxVideos: null,
    budget: null,
    concurrency: 4,
    formats: ['txt'],
    ...change,
  }).success;
}

describe('a title pattern', () => {
  const pattern = (length: number) => 'a'.repeat(length);
  it('of the longest length is taken by the CLI, the window and the contract', () => {
    expect(cli({ matchTitle: pattern(FILTER_LIMITS.titlePattern) })).toBeNull();
    expect(readSelectionFields({ ...NO_SELECTION, matchTitle: pattern(FILTER_LIMITS.titlePattern) }).ok).toBe(
      true,
    );
    expect(draft({ filters: { matchTitle: pattern(FILTER_LIMITS.titlePattern) } })).toBe(true);
  });

  it('one character longer is refused, named with its limit', () => {
    const long = pattern(FILTER_LIMITS.titlePattern + 1);
    expect(cli({ rejectTitle: long })).toBe('--reject-title has 501 characters: at most 500 are taken.');
    expect(readSelectionFields({ ...NO_SELECTION, rejectTitle: long })).toEqual({
      ok: false,
      problems: { rejectTitle: 'At most 500 characters: this has 501.' },
    });
    expect(draft({ filters: { rejectTitle: long } })).toBe(false);
  });
});

describe('positions', () => {
  const positions = (length: number) => `1-${'9'.repeat(length - 2)}`;
  it('one character longer than the longest is refused, named with its limit', () => {
    expect(cli({ items: positions(FILTER_LIMITS.positions) })).toBeNull();
    expect(cli({ items: positions(FILTER_LIMITS.positions + 1) })).toBe(
      '--items has 1,001 characters: at most 1,000 are taken.',
    );
    expect(
      readSelectionFields({ ...NO_SELECTION, positions: positions(FILTER_LIMITS.positions + 1) }),
    ).toEqual({
      ok: false,
      problems: { positions: 'At most 1,000 characters: this has 1,001.' },
    });
  });
});

describe('the language list', () => {
  it('of the longest length is taken; one character more is refused, named with its limit', () => {
    const longest = languages((MAX_LANGUAGE_LIST_CHARS + 1) / 3);
    expect(longest).toHaveLength(MAX_LANGUAGE_LIST_CHARS);
    expect(cli({ lang: longest })).toBeNull();
    expect(readOptionFields({ ...fieldsOf(BUILT_IN_JOB_DEFAULTS), languages: longest }).ok).toBe(true);
    expect(draft({ languages: longest })).toBe(true);

    const long = `${longest},`;
    expect(cli({ lang: long })).toBe('--lang has 201 characters: at most 200 are taken.');
    expect(readOptionFields({ ...fieldsOf(BUILT_IN_JOB_DEFAULTS), languages: long })).toEqual({
      ok: false,
      problems: { languages: 'At most 200 characters: this has 201.' },
    });
    expect(draft({ languages: long })).toBe(false);
  });
});
