import { createStore } from 'zustand';
import type {
  CommandOutput,
  JobDefaults,
  JobDraft,
  ScriptoriumApi,
  SourceLine,
} from '../../../shared/contract';
import { describeError, type ShownError } from '../lib/errors';
import { fieldsOf, type OptionFields, type OptionProblems } from '../lib/job-options';
import { NO_SELECTION, type SelectionFields } from '../lib/selection-fields';
import { appendLines, withoutInvalidLines } from '../lib/source-text';
import { createSourceChecker } from './new-job-checks';
import { readDraft } from './new-job-draft';
import { createPreviewActions, type PreviewActions, type PreviewState } from './new-job-preview';

export type { PreviewState } from './new-job-preview';

/** What Start did: began a job never started, continued one that had stopped, or found one running or done. */
export type StartedAs = NonNullable<CommandOutput<'createJob'>['started']>;

/** How long typing must pause before the lines are checked. */
export const CHECK_DELAY_MS = 300;

/** What the New job form holds. */
export interface NewJobForm {
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
  /** The job the last Start queued and what Start did to it, for the Jobs screen to say so. */
  lastStarted: { jobId: number; started: StartedAs } | null;
}

/** The form and what can be done with it. */
export interface NewJobState extends NewJobForm, PreviewActions {
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
  /** Creates and queues the job; resolves with its id, or null when it could not start. */
  start(): Promise<number | null>;
  dismissStarted(): void;
}

/** The form as it opens: nothing typed, the options waiting for Settings' defaults. */
const EMPTY_FORM: NewJobForm = {
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
};

/** The draft the form describes, or null after saying what is missing next to the button `at`. */
function draftSaid(
  form: NewJobForm,
  at: NewJobForm['formProblemAt'],
  set: (change: Partial<NewJobForm>) => void,
): JobDraft | null {
  const { text, name, fields, selection } = form;
  if (fields === null) return null;
  const reading = readDraft({ text, name, fields, selection });
  if (!reading.ok) {
    set({ formProblemAt: at, fieldProblems: reading.fieldProblems, formProblem: reading.formProblem });
    return null;
  }
  set({ formProblemAt: at, fieldProblems: {}, formProblem: null });
  return reading.draft;
}

/**
 * The New job form: the sources as typed, each line checked by validateSources shortly after
 * typing stops, the options, and the preview. The draft outlives a visit to another screen.
 */
export function createNewJobStore(api: ScriptoriumApi) {
  /** Counts edits, so that a preview of text changed since is not shown as the current one. */
  let edits = 0;
  /** Once the user changes an option, new defaults from Settings no longer replace it. */
  let fieldsEdited = false;

  return createStore<NewJobState>()((set, get) => {
    const checker = createSourceChecker(api, set, get);

    /** Something the preview depends on changed: a finished preview no longer applies. */
    const edited = (): Partial<NewJobState> => {
      edits += 1;
      const { preview } = get();
      return {
        formProblem: null,
        ...(preview.phase === 'done' || preview.phase === 'failed' ? { preview: { phase: 'idle' } } : {}),
      };
    };

    const draftOf = (at: NewJobForm['formProblemAt']) => draftSaid(get(), at, set);

    return {
      ...EMPTY_FORM,

      setText(text) {
        set({ text, ...edited() });
        checker.schedule(CHECK_DELAY_MS);
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
        checker.schedule(0);
      },

      addLines(lines, from) {
        if (lines.length === 0) return;
        set((state) => ({
          text: appendLines(state.text, lines),
          added: `Added ${lines.length === 1 ? '1 line' : `${lines.length} lines`} from ${from}.`,
          ...edited(),
        }));
        checker.schedule(0);
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

      ...createPreviewActions(api, {
        set,
        preview: () => get().preview,
        draft: () => draftOf('preview'),
        edits: () => edits,
      }),

      async start() {
        const draft = draftOf('start');
        if (draft === null || get().starting) return null;
        set({ starting: true, startError: null });
        try {
          const { job, started } = await api.createJob({ draft, start: true });
          checker.cancel();
          edits += 1;
          set({
            text: '',
            selection: NO_SELECTION,
            lines: [],
            added: null,
            preview: { phase: 'idle' },
            starting: false,
            lastStarted: { jobId: job.id, started: started ?? 'unchanged' },
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
