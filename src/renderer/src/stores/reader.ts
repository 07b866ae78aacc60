import { createStore } from 'zustand';
import type { CommandOutput, ScriptoriumApi } from '../../../shared/contract';
import { describeError, type ShownError } from '../lib/errors';

export type Transcript = CommandOutput<'readTranscript'>;

/** Where the reader was opened: each screen shows only its own. */
export type ReaderPlace = 'library' | 'job';

export interface ReaderState {
  /** The transcript asked for and the words whose hits it marks; null while the reader is closed. */
  open: { place: ReaderPlace; transcriptId: number; query: string | null } | null;
  /** The transcript once it is read (for `open`). */
  transcript: Transcript | null;
  error: ShownError | null;
  /** The segment the reader shows and Open at links to: a hit, or the first segment. */
  current: number;

  /**
   * Opens a transcript at `segment` (a hit of the search, or its first hit when null). The same
   * transcript and words are not read again: the reader only moves.
   */
  show(place: ReaderPlace, transcriptId: number, query: string | null, segment: number | null): Promise<void>;
  nextHit(): void;
  previousHit(): void;
  close(): void;
}

/** The hit after (or before, `step` -1) the current segment, or the current one at either end. */
function hitFrom(hits: readonly number[], current: number, step: 1 | -1): number {
  if (step === 1) return hits.find((hit) => hit > current) ?? current;
  return hits.findLast((hit) => hit < current) ?? current;
}

/**
 * The transcript reader shared by the Library and Job detail: one transcript at a time, read whole
 * with readTranscript. An answer for a transcript no longer asked for is dropped.
 */
export function createReaderStore(api: ScriptoriumApi) {
  let generation = 0;
  return createStore<ReaderState>()((set, get) => ({
    open: null,
    transcript: null,
    error: null,
    current: 0,

    async show(place, transcriptId, query, segment) {
      const { open, transcript } = get();
      if (open?.place === place && open.transcriptId === transcriptId && open.query === query) {
        const hits = transcript?.hits ?? [];
        set({ current: segment ?? hits[0] ?? get().current });
        return;
      }
      generation += 1;
      const asked = generation;
      set({ open: { place, transcriptId, query }, transcript: null, error: null, current: segment ?? 0 });
      try {
        const read = await api.readTranscript({ transcriptId, query });
        if (asked !== generation) return;
        set({ transcript: read, current: segment ?? read.hits[0] ?? 0 });
      } catch (error) {
        if (asked === generation) set({ error: describeError(error) });
      }
    },
    nextHit() {
      const { transcript, current } = get();
      if (transcript !== null) set({ current: hitFrom(transcript.hits, current, 1) });
    },
    previousHit() {
      const { transcript, current } = get();
      if (transcript !== null) set({ current: hitFrom(transcript.hits, current, -1) });
    },
    close() {
      generation += 1;
      set({ open: null, transcript: null, error: null, current: 0 });
    },
  }));
}
