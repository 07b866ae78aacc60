import { createStore } from 'zustand';
import {
  JobNameSchema,
  type JobDefaults,
  type JobDetail,
  type JobDraft,
  type ScriptoriumApi,
  type SourceLine,
} from '../../../shared/contract';
import { ContractError } from '../../../shared/contract-error';
import { MAX_SOURCES_PER_JOB } from '../../../shared/limits';
import { JOB_STATUS } from '../../../shared/vocabulary';
import { describeError, type ShownError } from '../lib/errors';
import { fieldsOf, readOptionFields, type OptionFields, type OptionProblems } from '../lib/job-options';
import { NO_SELECTION, readSelectionFields, type SelectionFields } from '../lib/selection-fields';
import { appendLines, sourceEntries, withoutInvalidLines } from '../lib/source-text';

/** A paste too long for one job, said with the limit. */
function tooManySources(count: number): string {
  return `There are ${count.toLocaleString('en')} sources: a job takes at most ${MAX_SOURCES_PER_JOB.toLocaleString('en')}. Split them into several jobs.`;
}

/** How long typing must pause before the lines are checked. */
export const CHECK_DELAY_MS = 300;

export type PreviewState =
  | { phase: 'idle' }
  /** The lists are being walked; jobId once the draft's job is known. */
  | { phase: 'walking'; jobId: number | null; stopping: boolean }
  | { phase: 'done'; detail: JobDetail; rejected: SourceLine[]; stoppedByUser: boolean }
  | { phase: 'failed'; error: ShownError };

export interface NewJobState {
  /** The paste box, as typed. */
  text: string;
  /** The job's name as typed; '' names it after what it holds. */
  name: string;
  /** The job options; null until the defaults from Settings arrive. */
  fields: OptionFields | null;
  /** Which videos of each list to take: the job's filters, as typed. */
  selection: SelectionFields;
  /** How each line reads, for the text as it was at the last check. */
  lines: readonly SourceLine[];
  checking: boolean;
  checkError: string | null;
  /** What was last added by a drop or a chosen file, to say so. */
  added: string | null;
  /** Why the form cannot be sent as it is (no source, a bad option). */
  formProblem: string | null;
  /** The button that found formProblem, so that it is said next to that button. */
  formProblemAt: 'preview' | 'start';
  fieldProblems: OptionProblems;
  preview: PreviewState;
  starting: boolean;
  startError: ShownError | null;
  /** The job the last Start queued, for the Jobs screen to say so; created false when it existed. */
  lastStarted: { jobId: number; created: boolean } | null;

  setText(text: string): void;
  setName(name: string): void;
  /** Takes the lines that are not sources out of the paste box. */
  removeInvalidLines(): void;
  /** Adds sources at the end of the paste box; `from` names where they came from. */
  addLines(lines: readonly string[], from: string): void;
  /** Says what happened to something dropped or chosen that added nothing. */
  noteAdded(message: string): void;
  setFields(change: Partial<OptionFields>): void;
  setSelection(change: Partial<SelectionFields>): void;
  /** Fills the options from Settings' defaults, unless the user has already changed them here. */
  applyDefaults(defaults: JobDefaults): void;
  runPreview(): Promise<void>;
  stopPreview(): Promise<void>;
  /** Creates and queues the job; resolves with its id, or null when it could not start. */
  start(): Promise<number | null>;
  dismissStarted(): void;
}

/**
 * The New job form: the sources as typed, each line checked by validateSources shortly after
 * typing stops, the options, and the preview. The draft outlives a visit to another screen.
 */
export function createNewJobStore(api: ScriptoriumApi) {
  let checkTimer: ReturnType<typeof setTimeout> | undefined;
  /** Numbers each check, so that a slow answer to older text is dropped. */
  let checkSeq = 0;
  /** Counts edits, so that a preview of text changed since is not shown as the current one. */
  let edits = 0;
  /** Once the user changes an option, new defaults from Settings no longer replace it. */
  let fieldsEdited = false;

  return createStore<NewJobState>()((set, get) => {
    const check = async (): Promise<void> => {
      const seq = ++checkSeq;
      const sources = sourceEntries(get().text);
      if (sources.length === 0) {
        set({ lines: [], checking: false, checkError: null });
        return;
      }
      if (sources.length > MAX_SOURCES_PER_JOB) {
        set({ lines: [], checking: false, checkError: tooManySources(sources.length) });
        return;
      }
      set({ checking: true });
      try {
        const { lines } = await api.validateSources({ sources });
        if (seq === checkSeq) set({ lines, checking: false, checkError: null });
      } catch (error) {
        if (seq === checkSeq) set({ checking: false, checkError: describeError(error).message });
      }
    };

    const scheduleCheck = (delayMs: number): void => {
      clearTimeout(checkTimer);
      checkTimer = setTimeout(() => void check(), delayMs);
    };

    /** Something the preview depends on changed: a finished preview no longer applies. */
    const edited = (): Partial<NewJobState> => {
      edits += 1;
      const { preview } = get();
      return {
        formProblem: null,
        ...(preview.phase === 'done' || preview.phase === 'failed' ? { preview: { phase: 'idle' } } : {}),
      };
    };

    /** The draft the form describes, or null after saying what is missing next to the button `at`. */
    const draftOf = (at: NewJobState['formProblemAt']): JobDraft | null => {
      const { text, name, fields, selection } = get();
      if (fields === null) return null;
      set({ formProblemAt: at });
      const sources = sourceEntries(text);
      const options = readOptionFields(fields);
      if (!options.ok) {
        set({
          fieldProblems: options.problems,
          formProblem: 'Some options are not valid: see the fields marked below.',
        });
        return null;
      }
      // The Selection group shows its problems as they are typed.
      const filters = readSelectionFields(selection);
      if (!filters.ok) {
        set({
          fieldProblems: {},
          formProblem: 'Some of the Selection is not valid: see the fields marked below.',
        });
        return null;
      }
      if (sources.length === 0) {
        set({
          fieldProblems: {},
          formProblem:
            'Paste at least one source first: a video, playlist or channel address, an @handle, or search: followed by words.',
        });
        return null;
      }
      if (sources.length > MAX_SOURCES_PER_JOB) {
        set({ fieldProblems: {}, formProblem: tooManySources(sources.length) });
        return null;
      }
      const named = name.trim() === '' ? undefined : JobNameSchema.safeParse(name);
      if (named !== undefined && !named.success) {
        set({
          fieldProblems: {},
          formProblem: `Job name: ${named.error.issues[0]?.message ?? 'not a name'}.`,
        });
        return null;
      }
      set({ fieldProblems: {}, formProblem: null });
      return {
        sources,
        ...options.value,
        ...(filters.filters !== undefined && { filters: filters.filters }),
        ...(named !== undefined && { name: named.data }),
      };
    };

    return {
      text: '',
      name: '',
      fields: null,
      selection: NO_SELECTION,
      lines: [],
      checking: false,
      checkError: null,
      added: null,
      formProblem: null,
      formProblemAt: 'start',
      fieldProblems: {},
      preview: { phase: 'idle' },
      starting: false,
      startError: null,
      lastStarted: null,

      setText(text) {
        set({ text, ...edited() });
        scheduleCheck(CHECK_DELAY_MS);
      },

      setName(name) {
        set({ name });
      },

      removeInvalidLines() {
        const before = get().text;
        const text = withoutInvalidLines(before);
        const removed = before.split(/\r\n|\r|\n/).length - text.split('\n').length;
        set({
          text,
          added: `Removed ${removed === 1 ? '1 line' : `${removed} lines`} that were not sources.`,
          ...edited(),
        });
        scheduleCheck(0);
      },

      addLines(lines, from) {
        if (lines.length === 0) return;
        set((state) => ({
          text: appendLines(state.text, lines),
          added: `Added ${lines.length === 1 ? '1 line' : `${lines.length} lines`} from ${from}.`,
          ...edited(),
        }));
        scheduleCheck(0);
      },

      noteAdded(message) {
        set({ added: message });
      },

      setFields(change) {
        const { fields } = get();
        if (fields === null) return;
        fieldsEdited = true;
        set({ fields: { ...fields, ...change }, ...edited() });
      },

      setSelection(change) {
        set((state) => ({ selection: { ...state.selection, ...change }, ...edited() }));
      },

      applyDefaults(defaults) {
        if (!fieldsEdited) set({ fields: fieldsOf(defaults) });
      },

      async runPreview() {
        const draft = draftOf('preview');
        if (draft === null || get().preview.phase === 'walking') return;
        const version = edits;
        set({ preview: { phase: 'walking', jobId: null, stopping: false } });
        let made: number | null = null;
        try {
          // Nothing is made for a preview that could not run: no key or no address is said first.
          await api.checkService({});
          // The draft's job next, so that its id is known while its lists are walked: the
          // preview is followed through jobChanged events and stopped with pauseJob.
          const { job, created } = await api.createJob({ draft, start: false });
          if (created) made = job.id;
          set({ preview: { phase: 'walking', jobId: job.id, stopping: false } });
          const { detail, rejected } = await api.previewJob({ draft });
          const { preview } = get();
          const stoppedByUser = preview.phase === 'walking' && preview.stopping;
          set({
            preview:
              edits === version ? { phase: 'done', detail, rejected, stoppedByUser } : { phase: 'idle' },
          });
        } catch (error) {
          // A key the service refused bought nothing: the job this preview made goes again.
          if (made !== null && error instanceof ContractError && error.code === 'key_refused')
            await api.deleteJob({ jobId: made }).catch(() => undefined);
          set({ preview: { phase: 'failed', error: describeError(error) } });
        }
      },

      async stopPreview() {
        const { preview } = get();
        if (preview.phase !== 'walking' || preview.jobId === null || preview.stopping) return;
        set({ preview: { ...preview, stopping: true } });
        try {
          await api.pauseJob({ jobId: preview.jobId });
        } catch (error) {
          set({ preview: { phase: 'failed', error: describeError(error) } });
        }
      },

      async start() {
        const draft = draftOf('start');
        if (draft === null || get().starting) return null;
        set({ starting: true, startError: null });
        // A job the preview created was a draft until now: starting it is starting a new job.
        const { preview } = get();
        const previewedDraft =
          preview.phase === 'done' && preview.detail.job.status === JOB_STATUS.draft
            ? preview.detail.job.id
            : null;
        try {
          const answer = await api.createJob({ draft, start: true });
          const { job } = answer;
          const created = answer.created || job.id === previewedDraft;
          clearTimeout(checkTimer);
          checkSeq += 1;
          edits += 1;
          set({
            text: '',
            selection: NO_SELECTION,
            lines: [],
            added: null,
            preview: { phase: 'idle' },
            starting: false,
            lastStarted: { jobId: job.id, created },
          });
          return job.id;
        } catch (error) {
          set({ starting: false, startError: describeError(error) });
          return null;
        }
      },

      dismissStarted() {
        set({ lastStarted: null });
      },
    };
  });
}
