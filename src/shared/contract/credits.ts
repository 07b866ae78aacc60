import { z } from 'zod';
import { type CommandSchemas } from './values';

export const CreditViewSchema = z.object({
  today: z.number().int(),
  total: z.number().int(),
  /** Of those counted, how many may or may not have been charged (requests never answered). */
  possible: z.number().int(),
  byJob: z.array(z.object({ jobId: z.number().int(), credits: z.number().int() })),
  last402: z.object({ code: z.string(), meaning: z.string(), at: z.string() }).nullable(),
  balance: z.number().int().nullable(),
  estimatedRemaining: z.number().int().nullable(),
});

/** What was spent, and the balance the user read on their account. */
export const creditCommands = {
  creditStatus: { input: z.object({}), output: CreditViewSchema },
  /** Records the balance the user read on their account; null forgets it. */
  setBalance: {
    input: z.object({ credits: z.number().int().nonnegative().nullable() }),
    output: CreditViewSchema,
  },
} as const satisfies CommandSchemas;

export type CreditView = z.infer<typeof CreditViewSchema>;
