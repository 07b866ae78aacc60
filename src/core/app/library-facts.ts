import type { Database } from '../store';
import { transcriptFactsAfter } from '../store/library';

/**
 * What the Library needs of every stored transcript to count and rank a search's matches without
 * reading them: its video, its number of segments and its language. A stored transcript never
 * changes and is never deleted, so these are read once per connection, then only the transcripts
 * stored since (by this process or another), at each search. Typed arrays indexed by transcript id,
 * and each video's id once: under a hundred bytes a transcript.
 */
export class TranscriptFacts {
  /** The id of the video's first transcript: two transcripts of one video have the same. */
  private video = new Int32Array(1024);
  private readonly firstOfVideo = new Map<string, number>();
  private segments = new Int32Array(1024);
  private language = new Uint16Array(1024);
  /** Each language as lower case, numbered in the order first met. */
  private readonly languages = new Map<string, number>();
  private readThrough = 0;
  private transcripts = 0;
  private segmentsInAll = 0;

  /** Reads the transcripts stored since the last call. */
  refresh(db: Database): this {
    for (const [id, videoId, segments, language] of transcriptFactsAfter(db, this.readThrough)) {
      this.makeRoom(id);
      const first = this.firstOfVideo.get(videoId);
      if (first === undefined) this.firstOfVideo.set(videoId, id);
      this.video[id] = first ?? id;
      this.segments[id] = segments;
      this.language[id] = this.languageNumber(language.toLowerCase());
      this.readThrough = id;
      this.transcripts++;
      this.segmentsInAll += segments;
    }
    return this;
  }

  /** One past the highest transcript id known. */
  get size(): number {
    return this.readThrough + 1;
  }

  videoOf(transcriptId: number): number {
    return this.video[transcriptId] ?? 0;
  }

  segmentsOf(transcriptId: number): number {
    return this.segments[transcriptId] ?? 0;
  }

  /** Whether the transcript is in `language`, case ignored. */
  isIn(transcriptId: number, language: string): boolean {
    const wanted = this.languages.get(language.toLowerCase());
    return wanted !== undefined && this.language[transcriptId] === wanted;
  }

  /** Segments a transcript has on average (1 in an empty library). */
  averageSegments(): number {
    return this.transcripts === 0 ? 1 : this.segmentsInAll / this.transcripts;
  }

  private languageNumber(language: string): number {
    let number = this.languages.get(language);
    if (number === undefined) {
      number = this.languages.size;
      this.languages.set(language, number);
    }
    return number;
  }

  private makeRoom(id: number): void {
    if (id < this.video.length) return;
    let size = this.video.length;
    while (size <= id) size *= 2;
    this.video = grown(this.video, new Int32Array(size));
    this.segments = grown(this.segments, new Int32Array(size));
    this.language = grown(this.language, new Uint16Array(size));
  }
}

function grown<T extends Int32Array | Uint16Array>(old: T, bigger: T): T {
  bigger.set(old);
  return bigger;
}

const perConnection = new WeakMap<Database, TranscriptFacts>();

/** The facts of every transcript stored so far, as this connection sees them. */
export function transcriptFacts(db: Database): TranscriptFacts {
  let facts = perConnection.get(db);
  if (facts === undefined) {
    facts = new TranscriptFacts();
    perConnection.set(db, facts);
  }
  return facts.refresh(db);
}
