import type { CorpusStatus, ExportFormat, SourceKind, UnwalkedListStatus } from '../../../shared/vocabulary';

export { EXPORT_FORMATS } from '../../../shared/vocabulary';
export type { ExportFormat };

/** One caption segment; times are seconds exactly as the service sent them. */
export interface ExportSegment {
  text: string;
  start?: number;
  duration?: number;
}

export interface ExportVideo {
  /**
   * Its corpus number, fixed when its job first listed it and never reused: its files are named by it
   * (six digits), so that a later version of the corpus adds files and never renames one.
   */
  number: number;
  videoId: string;
  /** May be '' when unknown. */
  title: string;
  /**
   * 1-based position in its playlist, channel or search results when that list first numbered it;
   * absent for a video given by itself. Its json file and records carry this one, which no sync changes.
   */
  position?: number;
  /**
   * Its place in that list as the latest read of it gave it, and when that read was made (index.csv
   * shows both); absent when that read is the one that first numbered it. A null position: that read
   * no longer found it in the list.
   */
  latestRead?: { position: number | null; listedAt: string };
  /** The source as the user typed it. */
  source: string;
  /**
   * Pending only in a corpus written before its job finished (paused for credits or budget);
   * skipped for a video a filter left out.
   */
  status: CorpusStatus;
  /** ok only. */
  language?: string;
  /** ok only: how many segments the transcript has (segments.length, given apart: see below). */
  segmentCount?: number;
  /**
   * ok only. This and the next field are the transcript's content: only the passes that write
   * transcripts read them, so a caller may compute them lazily (getters) and save the other passes
   * the cost.
   */
  segments?: ExportSegment[];
  /** ok only, when sent (snake_case as received). */
  metadata?: Record<string, unknown>;
  /** Not ok only. For a skipped video, `code` is ITEM_CODE.filteredOut and `message` names the filter. */
  httpStatus?: number;
  code?: string;
  message?: string;
  /** What the list pages said of the video, as given (absent for a video given by itself). */
  listing?: ExportListing;
  /** When the page that first numbered it was read (ISO time); absent for a video given by itself. */
  listedAt?: string;
  /** The indexes in `manifest.sources` of every source that holds it. Default: none known. */
  memberOf?: readonly number[];
  /** The language asked for ('' for the video's original track); ok only. */
  requestedLanguage?: string;
  /** When the transcript was fetched (ISO time); ok only. */
  fetchedAt?: string;
  /**
   * ok only: names the stored transcript its segments and metadata are read from, such that two equal
   * keys always mean equal segments and metadata (a stored transcript is never changed). With it, an
   * export may copy the video's files from an earlier export to the same path instead of rendering
   * them; without it, they are always rendered.
   */
  contentKey?: string;
}

/** What a list page (playlist, channel, search) says of one of its videos. */
export interface ExportListing {
  channelId?: string;
  channelTitle?: string;
  /** As given, e.g. "3 weeks ago" or an ISO date. */
  published?: string;
  /** From the listing's length text ("12:34"), when it could be read. */
  durationSeconds?: number;
  /** From the listing's view count text ("1,234 views"), when it could be read. */
  viewCount?: number;
  hasCaptions?: boolean;
}

/** One line of memberships.csv: a source that holds a video. */
export interface ExportMembership {
  videoId: string;
  /** The source as the user typed it. */
  source: string;
  /** A playlist's ID or a channel's UC id; null for a search or a video given by itself. */
  listId: string | null;
  listTitle: string | null;
  /**
   * Its place in the list as the latest read of it gave it; null for a video given by itself, or one
   * that read no longer found in the list.
   */
  position: number | null;
  /** When that read was made (ISO time); null for a video given by itself. */
  listedAt: string | null;
}

/** One line of changes.csv: what a version after the first did to one video, or to the corpus itself. */
export interface ExportChange {
  version: number;
  /** '' for a `metadata` change, which is about the corpus. */
  videoId: string;
  change: 'added' | 'retried' | 'changed' | 'metadata';
  detail: string;
}

/** A released version of the corpus, with what it brought. */
export interface ExportVersion {
  version: number;
  releasedAt: string;
  added: number;
  retried: number;
  changed: number;
  /** How many parts of what the corpus says of itself (title, license, formats…) it changed; default 0. */
  metadata?: number;
}

/**
 * The version an export writes, named once the export knows what the corpus holds (ExportInput.release),
 * with the job's history as of that version's release, which every export of it writes again.
 */
export interface ExportRelease {
  version: number;
  /** The released versions, oldest first, this one last. */
  versions: ExportVersion[];
  finishedAt: string;
  creditsSpent: number;
  creditsPossible: number;
  syncs: ExportSync[];
  /** changes.csv's rows up to this version: a FRESH iterator each time. */
  changes(): Iterable<ExportChange>;
}

/** A person who collected the corpus: "Given Family" or "Family, Given", with an ORCID iD. */
export interface ExportAuthor {
  givenNames?: string;
  familyNames: string;
  /** https://orcid.org/0000-0000-0000-0000 */
  orcid?: string;
}

/** Who made the corpus and under what terms, given before the checksums are written. */
export interface ExportCitation {
  /** The corpus's title; default: made from its sources. */
  title?: string;
  /** What it is for, in the user's words (the datasheet's motivation). */
  description?: string;
  authors: readonly ExportAuthor[];
  /** An SPDX license id, as given. */
  license?: string;
}

/** One bringing-up-to-date of a finished job (scriptorium sync): when, what was new, what it cost. */
export interface ExportSync {
  at: string;
  newVideos: number;
  credits: number;
}

/** A playlist, channel or search that could not be walked: a row of errors.csv in place of a video. */
export interface ExportSourceFailure {
  /** The source as the user typed it. */
  source: string;
  /** Unavailable when the service answered 404, else failed. */
  status: UnwalkedListStatus;
  httpStatus?: number;
  code?: string;
  message: string;
}

export interface ExportManifest {
  tool: { name: string; version: string };
  job_id: string;
  sources: string[];
  skipped_sources: Array<{ source: string; reason: string }>;
  /** Sources whose list could not be walked, with why. */
  failed_sources: Array<{
    source: string;
    status: string;
    http_status: number | null;
    code: string | null;
    message: string;
  }>;
  options: Record<string, unknown>;
  counts: {
    videos: number;
    ok: number;
    unavailable: number;
    failed: number;
    pending: number;
    skipped: number;
    sources_failed: number;
  };
  credits_spent: number;
  /** Of credits_spent, how many may or may not have been charged (requests that were never answered). */
  credits_possible: number;
  /** The job's finish time (ISO), NOT the export time; for an unfinished job, its last change. */
  finished_at: string;
  /** The corpus's version: 1 for the first export, one more for each export whose corpus differs. */
  version: number;
  /** The released versions, oldest first (the current one is among them once its job completed it). */
  versions: ExportVersion[];
  /**
   * Whether the job ran to its end: every list walked and no video left to fetch. False when it paused
   * (credits, budget) or a source could not be walked.
   */
  job_finished: boolean;
  /**
   * Whether every video the selection kept has its transcript: the job finished, and no video is
   * unavailable, failed or still to fetch (those a filter left out do not count).
   */
  all_videos_transcribed: boolean;
  /**
   * Where the transcripts came from: the service, its API version and the addresses the job's runs
   * used, first used first (none recorded for a job run before Scriptorium recorded them, or answered
   * only from transcripts stored here). Default: the service, its API version not known, no address.
   */
  service?: { name: string; api_version: string | null; addresses: string[] };
  /**
   * How index.csv's and the records' word_count counts, and the ICU version that counted. Default:
   * this process's (WORD_COUNT_METHOD), which counts the words of every file it renders.
   */
  word_count?: WordCountMethod;
}

/** How words are counted: the rule in words, and the ICU whose word segmentation split unspaced scripts. */
export interface WordCountMethod {
  method: string;
  /** The ICU version (Intl.Segmenter's data) the counts were made with; null without ICU. */
  icu: string | null;
}

export interface ExportInput {
  manifest: ExportManifest;
  /** Formats to write, one folder each. Default: all four. */
  formats?: ExportFormat[];
  /**
   * File name template. Placeholders: {title} {video_id} {language} {position} (the corpus number).
   * Default: '{title} [{video_id}]', after the corpus number.
   */
  nameTemplate?: string;
  /**
   * Returns a FRESH iterator over all videos in export order each time it is called: the writer makes
   * two passes so that memory stays flat, and records the corpus's fingerprint only when both read the
   * same videos.
   */
  videos(): Iterable<ExportVideo>;
  /** Sources that could not be walked; each is a row of errors.csv. Default: none. */
  failedSources?: ExportSourceFailure[];
  /** A FRESH iterator over memberships.csv's rows, in corpus order, each time. Default: none. */
  memberships?(): Iterable<ExportMembership>;
  /** A FRESH iterator over changes.csv's rows, by version, each time. Default: none. */
  changes?(): Iterable<ExportChange>;
  /** Title, description, authors and license. Default: a title made from the sources, no author. */
  citation?: ExportCitation;
  /** How chunks.jsonl cuts transcripts into passages (format 'chunks'). Default: DEFAULT_CHUNKING. */
  chunking?: { targetSeconds: number; overlapSeconds: number };
  /** The job's syncs, oldest first. Default: none. */
  syncs?: ExportSync[];
  /**
   * Names the version the corpus is, once the first pass knows what it holds: called once with the
   * fingerprint of its contents (everything written but its version and the job's history: finish
   * time, credits, syncs; undefined when not known), it returns the version those contents make, with
   * its history and changes, which replace the manifest's, `syncs` and `changes`. Without it, they are
   * written as given.
   */
  release?(contents: string | undefined): ExportRelease;
  /** Selection filters of the job, in words, for the datasheet ("title matches /talk/i"). Default: none. */
  filters?: string[];
  /** Transcripts by the language they came in, for the datasheet. Default: none. */
  languages?: Record<string, number>;
  /** How many videos each filter left out, in its words, as the job is now. Default: none. */
  skippedByFilter?: Array<{ reason: string; videos: number }>;
  /**
   * Each source's kind and a short name for titles (a playlist's ID, an @handle, "search: query"), in
   * the order of `manifest.sources`. Default: the sources as typed, kinds unknown.
   */
  sourceDetails?: Array<{ kind: SourceKind; label: string }>;
}

/** How far an export is, for a progress bar: videos written out of all videos. */
export interface ExportProgress {
  done: number;
  total: number;
}

export interface ExportOptions {
  /** Aborting it stops the export: the temporary file is removed and the target left as it was. */
  signal?: AbortSignal;
  /** Called as the transcripts' files are written; `total` is the number of videos. */
  onProgress?: (progress: ExportProgress) => void;
}

/** What writeCorpus produced. */
export interface ExportResult {
  /** Absolute path of the finished ZIP. */
  path: string;
  /** Size of the ZIP in bytes. */
  bytes: number;
  /** Number of entries in the ZIP. */
  entries: number;
  /**
   * Of the transcripts' files (and transcripts.jsonl and chunks.jsonl), how many were copied unchanged
   * from the previous export at the same path, and how many were rendered and compressed. The tables,
   * the datasheet and the checksums are always written afresh and counted in neither.
   */
  copied: number;
  written: number;
}
