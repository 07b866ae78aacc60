import { combineDomains } from '../../../shared/combine-domains';
import { analysisHandlers } from './analysis';
import type { AppContext, AppHandlers } from './context';
import { creditHandlers } from './credits';
import { exportHandlers } from './exports';
import { jobHandlers } from './jobs';
import { keepCurrentHandlers } from './keep-current';
import { libraryHandlers } from './library';
import { runHandlers } from './runs';
import { settingsHandlers } from './settings';
import { updateHandlers } from './updates';

export type { AppContext, AppHandlers, DomainHandlers } from './context';

/**
 * One handler per contract command, combined from the domains, a domain for each file of the
 * contract (shared/contract/), after Actual's loot-core, which assembles its handlers from
 * per-domain apps: a command no domain serves is a compile error (`satisfies AppHandlers`), and one
 * that two domains both serve is refused as the app opens (combineDomains).
 */
export function createHandlers(ctx: AppContext): AppHandlers {
  return combineDomains(
    'the app handlers',
    jobHandlers(ctx),
    runHandlers(ctx),
    keepCurrentHandlers(ctx),
    exportHandlers(ctx),
    libraryHandlers(ctx),
    analysisHandlers(ctx),
    settingsHandlers(ctx),
    creditHandlers(ctx),
    updateHandlers(ctx),
  ) satisfies AppHandlers;
}
