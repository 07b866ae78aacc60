import type { Database } from '../store';
import { captionCopiesAfter, transcriptFactsAfter } from '../store/queries/library';

/**
 * What the Library needs of every stored transcript to count and rank a search's matches without
 * reading them: its video, its number of segments, its language, and which of its captions an
 * earlier transcript of the same video and language holds (caption_copies). A stored transcript
 * never changes and is never deleted, so these are read once per connection, then only what was
 * stored or indexed since (by this process or another), at each search. Typed arrays indexed by
 * transcript id, and each video's id once: under a hundred bytes a transcript.
 */
export class TranscriptFacts {
  /** The id of the video's first transcript: two transcripts of one video have the same. */
  private video = new Int32Array(1024);
  private readonly firstOfVideo = new Map<string, number>();
  private segments = new Int32Array(1024);
  private language = new Uint16Array(1024);
  /** Each language as lower case, numbered in the order first met. */
  private readonly languages = new Map<string, number>();
  private readonly languageNames: string[] = [];
  private readThrough = 0;
  private transcripts = 0;
  private segmentsInAll = 0;
  /** The transcript most of this one's captions copy; 0 when none does. */
  private copyOf = new Int32Array(1024);
  /** The segments that copy another transcript than copyOf, with the one they copy (maybe their own). */
  private readonly copyExceptions = new Map<number, Map<number, number>>();
  /** 1 for a transcript some caption of a later one copies. */
  private copied = new Uint8Array(1024);
  private copiesReadThrough = 0;

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
    for (const [rowId, transcriptId, copyOf, exceptions] of captionCopiesAfter(db, this.copiesReadThrough)) {
      this.copiesReadThrough = rowId;
      this.makeRoom(Math.max(transcriptId, copyOf));
      this.copyOf[transcriptId] = copyOf;
      this.copied[copyOf] = 1;
      if (exceptions.length > 0) this.copyExceptions.set(transcriptId, new Map(exceptions));
      for (const [, origin] of exceptions) {
        this.makeRoom(origin);
        this.copied[origin] = 1;
      }
    }
    return this;
  }

  /** One past the highest transcript id known. */
  get size(): number {
    return this.readThrough + 1;
  }

  /** Whether a transcript of that id is stored (and known to this connection). */
  has(transcriptId: number): boolean {
    return (this.video[transcriptId] ?? 0) !== 0;
  }

  /** The video's number (its first transcript's id), if a transcript of it is stored. */
  videoNumber(videoId: string): number | undefined {
    return this.firstOfVideo.get(videoId);
  }

  /** The transcript's language, lower case. */
  languageOf(transcriptId: number): string {
    return this.languageNames[this.language[transcriptId] ?? 0] ?? '';
  }

  videoOf(transcriptId: number): number {
    return this.video[transcriptId] ?? 0;
  }

  segmentsOf(transcriptId: number): number {
    return this.segments[transcriptId] ?? 0;
  }

  /**
   * Which transcripts a language filter keeps: those in `language` or in a variant it is a prefix of
   * by subtag ("zh" keeps "zh-Hans" and "zh-Hant-TW", not "zhx"), case ignored.
   */
  languageFilter(language: string): (transcriptId: number) => boolean {
    const wanted = language.trim().toLowerCase();
    const kept = new Uint8Array(this.languages.size);
    for (const [name, number] of this.languages)
      if (name === wanted || name.startsWith(`${wanted}-`)) kept[number] = 1;
    return (transcriptId) => {
      const number = this.language[transcriptId];
      return number !== undefined && kept[number] === 1;
    };
  }

  /**
   * The transcript whose segment `segment` this transcript's holds the same caption as: the earliest
   * of the same video and language holding it, which may be this very one.
   */
  captionOrigin(transcriptId: number, segment: number): number {
    const copyOf = this.copyOf[transcriptId] ?? 0;
    if (copyOf === 0) return transcriptId;
    return this.copyExceptions.get(transcriptId)?.get(segment) ?? copyOf;
  }

  /** Whether the transcript copies captions of another, or another copies some of its own. */
  sharesCaptions(transcriptId: number): boolean {
    return this.copyOf[transcriptId] !== 0 || this.copied[transcriptId] === 1;
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
      this.languageNames.push(language);
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
    this.copyOf = grown(this.copyOf, new Int32Array(size));
    this.copied = grown(this.copied, new Uint8Array(size));
  }
}

function grown<T extends Int32Array | Uint16Array | Uint8Array>(old: T, bigger: T): T {
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
