import { toCreditView } from '../views';
import type { AppContext, DomainHandlers } from './context';

/** What was spent, and the balance the user read on their account (shared/contract/credits.ts). */
export function creditHandlers(ctx: AppContext): DomainHandlers<'creditStatus' | 'setBalance'> {
  return {
    creditStatus: async () => toCreditView(ctx.ledger.status()),

    setBalance: async ({ credits }) => {
      ctx.ledger.setBalance(credits);
      ctx.events.creditsTouched();
      return toCreditView(ctx.ledger.status());
    },
  };
}
