import type { ScriptoriumApi, SourceLine } from '../../../shared/contract';
import { MAX_SOURCES_PER_JOB } from '../../../shared/limits';
import { describeError } from '../lib/errors';
import { sourceEntries } from '../lib/source-text';
import { tooManySources } from './new-job-draft';

/** What the line check reads and writes of the New job form. */
interface CheckedForm {
  text: string;
  lines: readonly SourceLine[];
  checking: boolean;
  checkError: string | null;
}

export interface SourceChecker {
  /** Checks the paste box's lines after `delayMs`, replacing a check not yet begun. */
  schedule(delayMs: number): void;
  /** Drops the check to come and the answer of any check under way. */
  cancel(): void;
}

/** Checks each line of the paste box with validateSources; a slow answer to older text is dropped. */
export function createSourceChecker(
  api: ScriptoriumApi,
  set: (change: Partial<CheckedForm>) => void,
  get: () => CheckedForm,
): SourceChecker {
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** Numbers each check, so that only the newest one's answer is shown. */
  let seq = 0;

  const check = async (): Promise<void> => {
    const mine = ++seq;
    const sources = sourceEntries(get().text);
    if (sources.length === 0) return set({ lines: [], checking: false, checkError: null });
    if (sources.length > MAX_SOURCES_PER_JOB)
      return set({ lines: [], checking: false, checkError: tooManySources(sources.length) });
    set({ checking: true });
    try {
      const { lines } = await api.validateSources({ sources });
      if (mine === seq) set({ lines, checking: false, checkError: null });
    } catch (error) {
      if (mine === seq) set({ checking: false, checkError: describeError(error).message });
    }
  };

  return {
    schedule(delayMs) {
      clearTimeout(timer);
      timer = setTimeout(() => void check(), delayMs);
    },
    cancel() {
      clearTimeout(timer);
      seq += 1;
    },
  };
}
