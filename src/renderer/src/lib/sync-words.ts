import type { CommandOutput } from '../../../shared/contract';
import { JOB_STATUS } from '../../../shared/vocabulary';
import { plural } from './format';

/** What a sync found and cost, in a few words: "3 new videos, 4 credits", or "No new videos". */
export function describeSync({ newVideos, credits, outcome }: CommandOutput<'syncJob'>): string {
  const found = newVideos === 0 ? 'No new videos' : plural(newVideos, 'new video');
  // Reading a playlist again costs its pages even when nothing is new.
  const cost = newVideos === 0 && credits === 0 ? '' : `, ${plural(credits, 'credit')}`;
  const stopped =
    outcome.status === JOB_STATUS.completed
      ? ''
      : '. The job stopped before fetching them all: its state says why.';
  return `${found}${cost}${stopped}`;
}
