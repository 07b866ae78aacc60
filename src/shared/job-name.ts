/**
 * What a job is called, decided once for every face: the window's cards and headings, the CLI's
 * lines and tables, and the file its corpus is offered as.
 */

/** What a job's name is made from: the name the user gave, else its sources and their lists' titles. */
export interface NameableJob {
  id: number;
  /** The name the user gave; null: the job is named after what it holds. */
  name: string | null;
  /** In the order given; `title` is the list's own title once a page has named it. */
  sources: ReadonlyArray<{ input: string; title: string | null }>;
}

/** Sources a name spells out; the others are counted ("and 3 more"). */
const SOURCES_NAMED = 2;

/**
 * The user's name for the job; else what it holds, source by source, each by its list's title (or
 * as typed, for a video, a search or a list not read yet): "Lectures", "Lectures and Field notes",
 * "Lectures, Field notes and 3 more". Naming the sources themselves, rather than counting their kinds,
 * tells apart two jobs of one playlist and one channel each.
 */
export function jobName(job: NameableJob): string {
  if (job.name !== null) return job.name;
  const names = job.sources.map((source) => sourceName(source));
  if (names.length === 0) return `Job ${job.id}`;
  const named = names.slice(0, SOURCES_NAMED);
  const others = names.length - named.length;
  if (others > 0) return `${named.join(', ')} and ${others} more`;
  return named.join(' and ');
}

function sourceName(source: { input: string; title: string | null }): string {
  const title = source.title?.trim() ?? '';
  return title === '' ? source.input : title;
}

/** Characters of a title kept in a file name. */
const FILE_TITLE_CHARS = 60;

/**
 * The file a job's corpus is offered as (a download, the save dialog's suggestion):
 * "scriptorium-job-3-Lectures on engines.zip", after the corpus's title when one is given, else the
 * job's name; safe as a file name on every system.
 */
export function corpusFileName(jobId: number, title: string): string {
  const safe = [...title.replace(/[^\p{L}\p{N} ._-]+/gu, '_')]
    .slice(0, FILE_TITLE_CHARS)
    .join('')
    .replace(/^[ .]+|[ .]+$/g, '');
  return `scriptorium-job-${jobId}${safe === '' ? '' : `-${safe}`}.zip`;
}
