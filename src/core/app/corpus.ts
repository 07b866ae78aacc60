import { API_VERSION, rereadStoredTranscript } from '../api';
import { WORD_COUNT_METHOD } from '../export';
import { recordedInputs } from './version-inputs';
import { cacheLang, type ExportRow, type JobSummary } from '../engine';
import type { CorpusMetadata, CorpusState } from '../store';
import { authorLine } from '../../shared/citation';
import { describeFilters } from '../../shared/filters';
import {
  corpusStatusOf,
  isUnwalkedList,
  ITEM_STATUS,
  JOB_STATUS,
  ORIGINAL_TRACK,
  SOURCE_KIND,
} from '../../shared/vocabulary';
import type { Source } from '../../shared/sources';
import type {
  ExportChange,
  ExportCitation,
  ExportFormat,
  ExportInput,
  ExportMembership,
  ExportSourceFailure,
  ExportSync,
  ExportVersion,
  ExportVideo,
} from '../export';

/** The service a corpus names as the source of its transcripts (docs/service.md). */
const SERVICE_NAME = 'Video Transcript Service';

export interface CorpusOptions {
  formats: ExportFormat[];
  nameTemplate?: string;
  /** Title, description, authors and license; none given: a title made from the sources, no author. */
  citation?: ExportCitation;
}

/**
 * What the export reads of the job besides its rows: its syncs, the languages of its transcripts,
 * what each filter left out, its released versions, the tables of memberships and of changes up to a
 * version (read afresh, page by page, each time they are iterated), and the release of the version an
 * export's contents make (Engine.releaseCorpus).
 */
export interface CorpusHistory {
  syncs: ExportSync[];
  languages: Record<string, number>;
  skippedByFilter: Array<{ reason: string; videos: number }>;
  versions: ExportVersion[];
  /** The service's addresses the job's runs used, first used first. */
  services: Array<{ address: string; apiVersion: string }>;
  memberships(): Iterable<ExportMembership>;
  changes(through: number): Iterable<ExportChange>;
  release(release: {
    contents: string | undefined;
    metadata: CorpusMetadata;
    state: CorpusState;
    inputs: string;
  }): {
    version: number;
    state: CorpusState;
    versions: ExportVersion[];
  };
}

/**
 * Maps a finished job and its stored rows onto the export's input. Transcript bodies are
 * stored exactly as received, so they are read again here with the client's own tolerant
 * parser (camelCase or snake_case, integer or decimal times), but only by the passes that
 * write transcripts.
 */
export function corpusInput(
  job: JobSummary,
  rows: () => Iterable<ExportRow>,
  options: CorpusOptions,
  tool: { name: string; version: string },
  history: CorpusHistory,
): ExportInput {
  const failedSources = failedSourcesOf(job);
  const filters = describeFilters(job.options.filters ?? {});
  const finishedAt = job.finishedAt ?? job.updatedAt;
  const jobFinished = job.status === JOB_STATUS.completed && failedSources.length === 0;
  const metadata = corpusMetadata(options, job.settings.chunking, tool);
  const state: CorpusState = {
    finishedAt,
    creditsSpent: job.creditsSpent,
    creditsPossible: job.creditsPossible,
    syncs: history.syncs,
  };
  const input: ExportInput = {
    manifest: {
      tool,
      job_id: String(job.id),
      sources: job.sources.map((source) => source.input),
      skipped_sources: job.skipped.map((skipped) => ({ source: skipped.input, reason: skipped.reason })),
      failed_sources: failedSources.map((failure) => ({
        source: failure.source,
        status: failure.status,
        http_status: failure.httpStatus ?? null,
        code: failure.code ?? null,
        message: failure.message,
      })),
      options: {
        lang: job.options.langs,
        include_timestamp: job.options.includeTimestamp,
        send_metadata: job.options.sendMetadata,
        max_videos: job.options.maxVideos ?? null,
        filters,
        formats: options.formats,
        ...(options.formats.includes('chunks') && {
          chunk_seconds: job.settings.chunking.targetSeconds,
          chunk_overlap: job.settings.chunking.overlapSeconds,
        }),
      },
      counts: {
        videos: job.counts.total,
        ok: job.counts.ok,
        unavailable: job.counts.unavailable,
        failed: job.counts.failed,
        pending: job.counts.pending,
        skipped: job.counts.skipped,
        sources_failed: failedSources.length,
      },
      credits_spent: job.creditsSpent,
      credits_possible: job.creditsPossible,
      finished_at: finishedAt,
      // The last version released; release() names the one this export writes.
      version: history.versions.at(-1)?.version ?? 0,
      versions: history.versions,
      job_finished: jobFinished,
      all_videos_transcribed:
        jobFinished && job.counts.unavailable === 0 && job.counts.failed === 0 && job.counts.pending === 0,
      service: {
        name: SERVICE_NAME,
        api_version: API_VERSION,
        addresses: history.services.map((service) => service.address),
      },
      word_count: WORD_COUNT_METHOD,
    },
    failedSources,
    formats: options.formats,
    chunking: job.settings.chunking,
    syncs: history.syncs,
    filters,
    languages: history.languages,
    skippedByFilter: history.skippedByFilter,
    sourceDetails: job.sources.map((source) => ({ kind: source.kind, label: sourceLabel(source) })),
    memberships: () => history.memberships(),
    release: (contents) => {
      const released = history.release({ contents, metadata, state, inputs: recordedInputs(input) });
      return {
        version: released.version,
        versions: released.versions,
        finishedAt: released.state.finishedAt,
        creditsSpent: released.state.creditsSpent,
        creditsPossible: released.state.creditsPossible,
        syncs: released.state.syncs,
        changes: () => history.changes(released.version),
      };
    },
    ...(options.citation !== undefined && { citation: options.citation }),
    ...(options.nameTemplate !== undefined && { nameTemplate: options.nameTemplate }),
    videos: corpusVideos(job, rows),
  };
  return input;
}

/** The export's videos of the job's rows (as they are now, or as a released version kept them). */
export function corpusVideos(job: JobSummary, rows: () => Iterable<ExportRow>): () => Iterable<ExportVideo> {
  const asTyped = languagesAsTyped(job);
  return function* () {
    for (const row of rows()) yield toExportVideo(row, job, asTyped);
  };
}

/**
 * What the corpus says of itself, each part as changes.csv shows it when a version changes it: the
 * citation, the formats and passages asked for, and the tool that writes it.
 */
function corpusMetadata(
  options: CorpusOptions,
  chunking: { targetSeconds: number; overlapSeconds: number },
  tool: { name: string; version: string },
): CorpusMetadata {
  const { citation, formats } = options;
  return {
    title: citation?.title ?? '',
    description: citation?.description ?? '',
    authors: (citation?.authors ?? []).map(authorLine).join('; '),
    license: citation?.license ?? '',
    formats: formats.join(','),
    chunks: formats.includes('chunks')
      ? `${chunking.targetSeconds} s, overlap ${chunking.overlapSeconds} s`
      : '',
    tool: `${tool.name} ${tool.version}`,
  };
}

/**
 * The job's languages as the user typed them, by the form the cache keys transcripts with (lower case,
 * '' for the original track): a corpus says `zh-Hans` as asked, not the cache's `zh-hans`.
 */
function languagesAsTyped(job: JobSummary): ReadonlyMap<string, string> {
  return new Map(job.options.langs.map((lang) => [cacheLang(lang), lang === ORIGINAL_TRACK ? '' : lang]));
}

/** What names a source in a title: a list's or video's ID, an @handle, or the search's words. */
function sourceLabel(source: Source): string {
  return source.kind === SOURCE_KIND.search ? `search: ${source.id}` : source.id;
}

/** The job's lists that could not be walked, for errors.csv and the manifest. */
function failedSourcesOf(job: JobSummary): ExportSourceFailure[] {
  return job.walks.flatMap((walk) =>
    isUnwalkedList(walk.walkStatus)
      ? [
          {
            source: walk.input,
            status: walk.walkStatus,
            ...(walk.httpStatus !== null && { httpStatus: walk.httpStatus }),
            ...(walk.errorCode !== null && { code: walk.errorCode }),
            message: walk.error ?? '',
          },
        ]
      : [],
  );
}

// Built by assignment rather than spreads: it runs twice for every video of the job (planning pass and
// writing pass), and the spreads' short-lived objects were a good part of an export again's garbage.
function toExportVideo(row: ExportRow, job: JobSummary, asTyped: ReadonlyMap<string, string>): ExportVideo {
  const stored = row.transcript;
  const video =
    stored !== null && row.status === ITEM_STATUS.ok ? okVideo(row, stored, job, asTyped) : notOkVideo(row);
  if (row.sourceKind !== SOURCE_KIND.video) {
    video.position = row.position;
    video.listing = row.listing;
    if (row.listedAt !== null) video.listedAt = row.listedAt;
    // index.csv pairs the position of the list's latest read with that read's time.
    const { latestPosition, latestListedAt } = row;
    if (latestListedAt !== null && (latestPosition !== row.position || latestListedAt !== row.listedAt)) {
      video.latestRead = { position: latestPosition, listedAt: latestListedAt };
    }
  }
  return video;
}

function notOkVideo(row: ExportRow): ExportVideo {
  const video: ExportVideo = {
    number: row.number,
    videoId: row.videoId,
    title: row.title,
    source: row.sourceInput,
    memberOf: row.memberOf,
    // A video marked ok without its transcript (a bug) is reported as failed rather than left out.
    status: row.status === ITEM_STATUS.ok ? ITEM_STATUS.failed : corpusStatusOf(row.status),
  };
  if (row.httpStatus !== null) video.httpStatus = row.httpStatus;
  if (row.code !== null) video.code = row.code;
  if (row.message !== null) video.message = row.message;
  return video;
}

function okVideo(
  row: ExportRow,
  stored: NonNullable<ExportRow['transcript']>,
  job: JobSummary,
  asTyped: ReadonlyMap<string, string>,
): ExportVideo {
  // The body is read and parsed on first use only: index.csv and errors.csv need none of it, and
  // the engine stored the language and segment count it found in this same body.
  let content: TranscriptContent | undefined;
  const read = (): TranscriptContent => (content ??= readStoredTranscript(row.videoId, stored, job));
  return {
    number: row.number,
    videoId: row.videoId,
    title: row.title,
    source: row.sourceInput,
    memberOf: row.memberOf,
    status: ITEM_STATUS.ok,
    language: stored.language,
    requestedLanguage: asTyped.get(stored.requestedLang) ?? stored.requestedLang,
    fetchedAt: stored.fetchedAt,
    segmentCount: stored.segmentCount,
    // A stored transcript is never changed (the cache only inserts), so its row names its segments and
    // metadata; the rest guards against a row id used again after a deletion.
    contentKey: `${stored.id} ${row.videoId} ${stored.requestedLang} ${stored.fetchedAt}`,
    get segments() {
      return read().segments;
    },
    get metadata() {
      return read().metadata;
    },
  };
}

type TranscriptContent = Required<Pick<ExportVideo, 'segments'>> & Pick<ExportVideo, 'metadata'>;

function readStoredTranscript(
  videoId: string,
  stored: NonNullable<ExportRow['transcript']>,
  job: JobSummary,
): TranscriptContent {
  const raw: unknown = JSON.parse(stored.body);
  const request = {
    video: videoId,
    includeTimestamp: job.options.includeTimestamp,
    sendMetadata: job.options.sendMetadata,
    ...(stored.requestedLang !== '' && { lang: stored.requestedLang }),
  };
  const reading = rereadStoredTranscript(raw, request);
  if (!reading.ok)
    throw new Error(`the stored transcript of ${videoId} cannot be read again: ${reading.problem}`);
  const metadata = isRecord(raw) && isRecord(raw['metadata']) ? raw['metadata'] : undefined;
  return { segments: reading.value.segments, metadata };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
