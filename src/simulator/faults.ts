/** Injected faults: rules that replace or delay the normal answer of matching requests. */
import { z } from 'zod';
import type { FaultRule } from './index';
import { Rng } from './random';

export const faultRuleSchema = z
  .object({
    match: z
      .object({
        endpoint: z.string().optional(),
        videoId: z.string().optional(),
        lang: z.string().optional(),
      })
      .strict()
      .optional(),
    kind: z.enum(['status', 'malformed', 'wrong-shape', 'truncated', 'delay', 'hang']),
    status: z.number().int().min(100).max(599).optional(),
    retryAfter: z.string().optional(),
    delayMs: z.number().int().min(0).optional(),
    times: z.number().int().min(1).optional(),
    rate: z.number().min(0).max(1).optional(),
  })
  .strict()
  .refine((rule) => rule.kind !== 'status' || rule.status !== undefined, {
    message: "a 'status' fault needs a status",
    path: ['status'],
  })
  .refine((rule) => rule.kind !== 'delay' || rule.delayMs !== undefined, {
    message: "a 'delay' fault needs delayMs",
    path: ['delayMs'],
  });

/** Kinds that answer 200, so they cost a credit on a paid endpoint like any other 200. */
export const ANSWERS_200: ReadonlySet<FaultRule['kind']> = new Set(['malformed', 'wrong-shape', 'truncated']);

/** What a request looks like to a rule's `match`. */
export interface FaultTarget {
  endpoint: string;
  videoId?: string;
  lang?: string;
}

/** 'transcript', '/api/v2/transcript' and '/transcript' name the same endpoint. */
function endpointName(name: string): string {
  return name.replace(/^\/?(api\/v2\/)?/, '');
}

function matches(rule: FaultRule, target: FaultTarget): boolean {
  const match = rule.match;
  if (!match) return true;
  if (match.endpoint !== undefined && endpointName(match.endpoint) !== target.endpoint) return false;
  if (match.videoId !== undefined && match.videoId !== target.videoId) return false;
  if (match.lang !== undefined && match.lang.toLowerCase() !== target.lang?.toLowerCase()) return false;
  return true;
}

export class FaultBook {
  readonly #seed: number;
  #rng: Rng;
  #rules: { rule: FaultRule; remaining: number }[] = [];

  constructor(seed: number) {
    this.#seed = seed;
    this.#rng = new Rng(seed);
  }

  /** Adds a rule after checking it; throws a plain-language error for an invalid one. */
  add(rule: FaultRule): void {
    const parsed = faultRuleSchema.safeParse(rule);
    if (!parsed.success) throw new TypeError(`invalid fault rule: ${z.prettifyError(parsed.error)}`);
    this.#rules.push({ rule: parsed.data, remaining: parsed.data.times ?? Infinity });
  }

  clear(): void {
    this.#rules = [];
    this.#rng = new Rng(this.#seed);
  }

  /**
   * The first rule that matches `target`, passes `eligible` and fires (its seeded `rate` roll), using
   * up one of its `times`; null when none fires.
   */
  take(target: FaultTarget, eligible: (rule: FaultRule) => boolean): FaultRule | null {
    for (const entry of this.#rules) {
      if (!matches(entry.rule, target) || !eligible(entry.rule)) continue;
      const rate = entry.rule.rate ?? 1;
      if (rate < 1 && this.#rng.next() >= rate) continue;
      entry.remaining -= 1;
      if (entry.remaining <= 0) this.#rules = this.#rules.filter((other) => other !== entry);
      return entry.rule;
    }
    return null;
  }
}
