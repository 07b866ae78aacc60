import type { JobStatus, ListStatus, SourceLine, VideoStatus } from '../../../shared/contract';
import { JOB_STATUS_WORDS } from '../../../shared/vocabulary';

/**
 * How numbers, times and states read on screen. English only, so the locale is fixed: a user's
 * browser locale would otherwise mix "1.234" into English sentences.
 */
const numbers = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return numbers.format(value);
}

/** Where the latest read of its list put a video: "12 in @lab", or "no longer in @lab". */
export function placeInList(position: number | null, source: string): string {
  return position === null ? `no longer in ${source}` : `${formatCount(position)} in ${source}`;
}

/** "1 video", "12 videos". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : pluralForm}`;
}

/** "45 s", "3 min", "2 h 5 min": how long something takes, rounded to what a person reads. */
export function formatDuration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const minutes = Math.round(whole / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** "3.2 videos a second", or per minute when slower than one a second. */
export function formatRate(perSecond: number): string {
  if (perSecond <= 0) return 'none yet';
  if (perSecond >= 1) return `${perSecond.toFixed(1)} videos a second`;
  return `${Math.max(1, Math.round(perSecond * 60))} a minute`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** "12 Mar, 14:02" in the user's time zone. */
export function formatWhen(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

export function jobStatusLabel(status: JobStatus): string {
  return capitalize(JOB_STATUS_WORDS[status]);
}

const VIDEO_STATUS_LABELS: Readonly<Record<VideoStatus, string>> = {
  pending: 'Pending',
  fetching: 'Fetching',
  ok: 'OK',
  unavailable: 'Unavailable',
  failed: 'Failed',
  skipped: 'Skipped',
};

export function videoStatusLabel(status: VideoStatus): string {
  return VIDEO_STATUS_LABELS[status];
}

const LIST_STATUS_LABELS: Readonly<Record<ListStatus, string>> = {
  pending: 'Being read',
  done: 'Read',
  unavailable: 'Not found',
  failed: 'Could not be read',
};

/** How far a playlist's, channel's or search's walk has come. */
export function listStatusLabel(status: ListStatus): string {
  return LIST_STATUS_LABELS[status];
}

const SOURCE_KIND_LABELS: Readonly<Record<NonNullable<SourceLine['kind']>, string>> = {
  video: 'Video',
  playlist: 'Playlist',
  channel: 'Channel',
  search: 'Search',
};

export function sourceKindLabel(kind: NonNullable<SourceLine['kind']>): string {
  return SOURCE_KIND_LABELS[kind];
}

/** The first letter in capitals, for messages that arrive as sentence ends ("the budget … is spent"). */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A sentence ends with a full stop, whatever the message it came from ended with. */
export function sentence(text: string): string {
  const trimmed = capitalize(text.trim());
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
