import { describe, expect, it } from 'vitest';
import {
  jobStatusLabel,
  listStatusLabel,
  placeInList,
  videoStatusLabel,
} from '../../src/renderer/src/lib/format';
import { ITEM_STATUSES, JOB_STATUSES, LIST_STATUSES } from '../../src/shared/vocabulary';

/** The word for each status: one of its own, and never the raw value. */
function expectOwnWords(statuses: readonly string[], words: string[]): void {
  expect(new Set(words).size).toBe(statuses.length);
  words.forEach((word, index) => expect(word).not.toBe(statuses[index]));
}

describe('the words the window shows for a status', () => {
  it('exist for every job status', () => expectOwnWords(JOB_STATUSES, JOB_STATUSES.map(jobStatusLabel)));
  it('exist for every video status', () =>
    expectOwnWords(ITEM_STATUSES, ITEM_STATUSES.map(videoStatusLabel)));
  it('exist for every list status, "failed" included', () =>
    expectOwnWords(LIST_STATUSES, LIST_STATUSES.map(listStatusLabel)));
});

describe("a video's place in its list", () => {
  it('reads as its position there, or says the latest read of the list no longer found it', () => {
    expect(placeInList(1234, '@lab')).toBe('1,234 in @lab');
    expect(placeInList(null, 'PLlab')).toBe('no longer in PLlab');
  });
});
