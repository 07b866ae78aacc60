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
 * the promised one alike. None is pending now: the four written with issue 42 (a citation part given
 * alone keeps the others, channel/latest's exact dates on a first export, credits never understated
 * after a kill, a 503 storm's videos sent again) hold since i43 and i44 merged, and always run.
 */
export const PENDING_RULES: ReadonlyArray<{
  rule: string;
  branch: string;
  promise: string;
  /** A sequence on which the rule, switched on alone, fails on main (corpora.test.ts shows it). */
  shownBy: { pageSize: number; steps: readonly Step[] };
}> = [];

export type PendingRule = string;

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
