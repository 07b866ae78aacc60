import type { Step } from './steps';

/**
 * The rules every corpus and command must keep, each named, so that a failure says which rule broke
 * and on which rows (docs/product.md). The rules themselves live in rules/, a file per part of the
 * corpus; this module holds what they share and the one list of rules pending on main.
 */

export interface Violation {
  rule: string;
  detail: string;
}

/** Rows shown in a message: a few, and how many more. */
export function some(rows: readonly string[], shown = 6): string {
  return rows.length <= shown
    ? rows.join('; ')
    : `${rows.slice(0, shown).join('; ')}; and ${rows.length - shown} more`;
}

/** A violation of `rule` listing `rows`, or none when there are no rows. */
export function unless(rule: string, rows: readonly string[]): Violation[] {
  return rows.length === 0 ? [] : [{ rule, detail: some(rows) }];
}

/**
 * Rules PRODUCT.md states that main does not keep yet, each with the branch being built to keep it.
 * They are off unless switched on (MODEL_PENDING=all, or words of their names, comma-separated;
 * `npm run test:model -- --pending all`): switched on, each fails on main's behaviour (tests/model/
 * README.md says which sequence shows it). The lead switches a rule on for good, by moving it out of
 * this list, when its branch merges. While a rule is off, the reference accepts main's behaviour and
 * the promised one alike.
 */
export const PENDING_RULES = [
  {
    rule: 'citation: a part given alone keeps the others',
    branch: 'i43-citations',
    promise: 'giving one of --title, --description, --author/--orcid, --license never clears another',
    shownBy: {
      pageSize: 100,
      steps: [
        {
          op: 'export',
          job: { sources: ['PLmodelPlainListing_n7'], formats: 'txt' },
          citation: { title: 'Rivers of speech', authors: ['Ada Lovelace'] },
          out: 'same',
        },
        { op: 'exportAgain', job: -1, citation: { license: 'MIT' }, out: 'same' },
      ],
    },
  },
  {
    rule: 'dates: exact dates from channel/latest on a first export',
    branch: 'i43-integrity',
    promise:
      'every exact publish date the service gives (channel/latest included, on a first export too) is used',
    shownBy: {
      pageSize: 100,
      steps: [{ op: 'export', job: { sources: ['@modelChannelA_n12'], formats: 'txt' }, out: 'same' }],
    },
  },
  {
    rule: 'credits: never understated after a kill',
    branch: 'i43-integrity',
    promise:
      'after any kill, credits spent plus credits possibly charged are never less than what the service charged',
    shownBy: {
      pageSize: 100,
      steps: [
        { op: 'preview', job: { sources: ['PLmodelPlainListing_n7'], formats: 'txt' } },
        { op: 'kill', job: -1, signal: 'SIGKILL', atRequest: 3 },
      ],
    },
  },
  {
    rule: 'retries: videos failed only by a 503 storm are sent again by the next run',
    branch: 'i44-said',
    promise: 'videos that failed only from a 503 storm are retried by the next run of the same command',
    shownBy: {
      pageSize: 100,
      steps: [
        { op: 'fault', fault: { kind: 'storm', count: 12 }, pick: 0 },
        {
          op: 'export',
          job: { sources: ['@modelChannelB_n26'], formats: 'txt' },
          out: 'same',
          concurrency: 1,
        },
        { op: 'exportAgain', job: -1, out: 'same' },
      ],
    },
  },
] as const satisfies ReadonlyArray<{
  rule: string;
  branch: string;
  promise: string;
  /** A sequence on which the rule, switched on alone, fails on main (corpora.test.ts shows it). */
  shownBy: { pageSize: number; steps: readonly Step[] };
}>;

export type PendingRule = (typeof PENDING_RULES)[number]['rule'];

/** The pending rules switched on for this run (MODEL_PENDING: 'all', or words of their names). */
export function switchedOn(setting = process.env['MODEL_PENDING'] ?? ''): Set<PendingRule> {
  const words = setting
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
  return new Set(
    PENDING_RULES.filter(({ rule }) => words.some((word) => word === 'all' || rule.includes(word))).map(
      ({ rule }) => rule,
    ),
  );
}

/** Whether a violation is of a pending rule (which counts only when switched on). */
export function isPending(rule: string): boolean {
  return PENDING_RULES.some((pending) => rule === pending.rule);
}
