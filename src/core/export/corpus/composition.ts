import type { ExportVideo } from './types';

/** What part of a corpus holds: its videos, those with a transcript, their hours and words. */
export interface Share {
  videos: number;
  transcripts: number;
  /** How far the transcripts' captions reach, added up, in seconds. */
  seconds: number;
  words: number;
}

const emptyShare = (): Share => ({ videos: 0, transcripts: 0, seconds: 0, words: 0 });

/**
 * The corpus's composition for its datasheet, gathered while its files are written (the transcripts
 * are read once): by source, a video counted in every source that holds it, and by language.
 * Memory grows with the number of sources and languages, never with the videos.
 */
export class CompositionTally {
  readonly bySource: Share[];
  readonly byLanguage = new Map<string, Share>();
  /** Transcripts with times and words: each gives chunks.jsonl at least one passage. */
  timedWithWords = 0;
  readonly #sources: readonly string[];

  constructor(sources: readonly string[]) {
    this.#sources = sources;
    this.bySource = sources.map(emptyShare);
  }

  /** The tally's transcripts, in every language. */
  get transcripts(): number {
    let count = 0;
    for (const share of this.byLanguage.values()) count += share.transcripts;
    return count;
  }

  add(video: ExportVideo, transcript: { words: number; seconds: number; timed: boolean } | undefined): void {
    const memberOf =
      video.memberOf !== undefined && video.memberOf.length > 0
        ? video.memberOf
        : [this.#sources.indexOf(video.source)];
    for (const index of new Set(memberOf)) {
      const share = this.bySource[index];
      if (share === undefined) continue;
      share.videos += 1;
      if (transcript !== undefined) addTranscript(share, transcript);
    }
    if (transcript === undefined) return;
    if (transcript.timed && transcript.words > 0) this.timedWithWords += 1;
    const language = video.language ?? '';
    let share = this.byLanguage.get(language);
    if (share === undefined) {
      share = emptyShare();
      this.byLanguage.set(language, share);
    }
    share.videos += 1;
    addTranscript(share, transcript);
  }
}

function addTranscript(share: Share, transcript: { words: number; seconds: number }): void {
  share.transcripts += 1;
  share.seconds += transcript.seconds;
  share.words += transcript.words;
}
