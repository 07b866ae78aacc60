import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import { printable, readable, type IndexingProgress } from '../../core/app';
import {
  CONCORDANCE_ORDERS,
  type Concordance,
  type ConcordanceOptions,
  type SearchResults,
} from '../../shared/contract';
import type { SnippetPart } from '../../shared/search-match';
import { clockTime } from '../../shared/video-links';
import { isClosedPipe } from '../closed-pipe';
import { withApp } from '../environment';
import { CliExit, ExitCode } from '../exit';
import { argumentOrExit } from '../argument-error';
import { parseWholeNumber } from '../job-options';
import { jobNumber } from '../job-number';

interface SearchFlags {
  kwic: boolean;
  context?: string;
  sort?: string;
  job?: string;
  lang?: string;
  channel?: string;
  limit?: string;
  json: boolean;
  csv: boolean;
  dataDir?: string;
}

/**
 * `scriptorium search QUERY`: searches every stored transcript (the Library) and prints one line per
 * hit, grouped by video, best video first, then how many matched in all. Nothing is sent. Exit 0
 * with hits, 1 with none, 2 for a query it cannot read or a job that does not exist (docs/product.md,
 * "Searching your transcripts"). A reader that closes the output early (`| head -1`) ends it quietly.
 */
export function registerSearchCommand(program: Command): void {
  program
    .command('search')
    .description('Search the transcripts you have bought: words, "phrases", prefix*, A OR B, -excluded.')
    .argument('<query>', 'what to search for (quote it for the shell: \'"small engine" -river\')')
    .option('--job <n>', 'only the videos of this job')
    .option('--lang <code>', 'only transcripts in this language or a variant of it (zh holds zh-Hans)')
    .option('--channel <text>', "only videos whose channel's name holds this text")
    .option(
      '--limit <n>',
      `hits to print, at most (1 to 1000; default ${DEFAULT_LIMIT}, and every hit with --csv)`,
    )
    .option('--kwic', 'print a concordance: each hit with the words left and right of the match', false)
    .option('--context <n>', 'with --kwic, the words on each side (1 to 50; default 8)')
    .option('--sort <order>', `with --kwic, the lines' order: ${CONCORDANCE_ORDERS.join(', ')}`)
    .option('--json', "print the results as JSON (the contract's searchTranscripts answer)", false)
    .option(
      '--csv',
      'print the hits as CSV: video_id,transcript_id,language,title,time,start_seconds,url,snippet (with --kwic, video_id,transcript_id,language,title,channel_title,published_from,published_to,time,start_seconds,url,left,match,right)',
      false,
    )
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action(async (query: string, flags: SearchFlags) => {
      if (flags.json && flags.csv) throw new CliExit(ExitCode.badInput, 'Choose --json or --csv, not both.');
      const search = {
        query,
        jobId: flags.job === undefined ? null : jobNumber(flags.job),
        language: flags.lang ?? null,
        channel: flags.channel ?? null,
      };
      const limit = flags.limit === undefined ? null : limitOf(flags.limit);
      const concordance = concordanceOf(flags);
      if (concordance !== null && !flags.csv) {
        const lines = await withApp({ ...flags, onIndexing: indexingReporter() }, async (api, app) => {
          await app.libraryIndexed;
          return api.libraryConcordance({ ...search, ...concordance, limit: limit ?? DEFAULT_LIMIT });
        });
        process.stdout.write(flags.json ? `${JSON.stringify(lines, null, 2)}\n` : formatConcordance(lines));
        if (lines.hits === 0) process.exitCode = ExitCode.nothingFound;
        return;
      }
      const found = await withApp({ ...flags, onIndexing: indexingReporter() }, async (api, app) => {
        // The first search after an upgrade that indexes the library again waits for it.
        await app.libraryIndexed;
        if (!flags.csv) return api.searchTranscripts({ ...search, limit: limit ?? DEFAULT_LIMIT });
        const folder = mkdtempSync(join(tmpdir(), 'scriptorium-search-'));
        try {
          const path = join(folder, 'hits.csv');
          const { hits } = await api.exportSearchResults({
            ...search,
            destination: path,
            limit,
            concordance,
          });
          await pipeline(createReadStream(path), process.stdout, { end: false }).catch((error: unknown) => {
            if (!isClosedPipe(error)) throw error;
          });
          return hits;
        } finally {
          rmSync(folder, { recursive: true, force: true });
        }
      });
      const hits = typeof found === 'number' ? found : found.hits;
      if (typeof found !== 'number') {
        process.stdout.write(flags.json ? `${JSON.stringify(found, null, 2)}\n` : formatResults(found));
      }
      if (hits === 0) process.exitCode = ExitCode.nothingFound;
    });
}

/** Hits printed when --limit is not given (but for --csv, which prints every hit). */
const DEFAULT_LIMIT = 100;

/** Progress of indexing the stored transcripts (after an upgrade), on stderr, every 5 % or so. */
export function indexingReporter(): (progress: IndexingProgress) => void {
  let shown = -1;
  return ({ done, total }) => {
    const twentieth = Math.floor((done * 20) / total);
    if (twentieth === shown) return;
    shown = twentieth;
    process.stderr.write(
      `Indexing your stored transcripts for search: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}\n`,
    );
  };
}

/** The concordance --kwic asks for, or null; --context and --sort alone are refused. */
function concordanceOf(flags: SearchFlags): ConcordanceOptions | null {
  if (!flags.kwic) {
    if (flags.context !== undefined || flags.sort !== undefined)
      throw new CliExit(ExitCode.badInput, '--context and --sort go with --kwic.');
    return null;
  }
  const sort = flags.sort ?? 'relevance';
  if (!(CONCORDANCE_ORDERS as readonly string[]).includes(sort))
    throw new CliExit(ExitCode.badInput, `--sort ${sort}: expected one of ${CONCORDANCE_ORDERS.join(', ')}.`);
  return {
    context:
      flags.context === undefined
        ? 8
        : argumentOrExit(() => parseWholeNumber('--context', flags.context ?? '', 1, 50)),
    sort: sort as ConcordanceOptions['sort'],
  };
}

/** Widest left context shown before it is cut (from its far end): the matches stay in one column. */
const LEFT_CHARS = 60;

/**
 * One line per hit, the matches in one column: the words before it right-aligned, the match in
 * [brackets], the words after it; then the video, its time and the link. Then the totals.
 */
export function formatConcordance(concordance: Concordance): string {
  const lefts = concordance.rows.map((row) => {
    const left = [...printable(row.left)];
    return left.length <= LEFT_CHARS ? left.join('') : `…${left.slice(-(LEFT_CHARS - 1)).join('')}`;
  });
  const width = Math.max(0, ...lefts.map((left) => [...left].length));
  let text = '';
  concordance.rows.forEach((row, i) => {
    const left = lefts[i] ?? '';
    const time = row.start === null ? '-' : clockTime(row.start);
    text += `${' '.repeat(width - [...left].length)}${left} [${printable(row.match)}] ${printable(row.right)}  ${row.videoId} ${time} ${row.url}\n`;
  });
  const shown = concordance.rows.length;
  const hits = `${concordance.hits.toLocaleString('en-US')} hit${concordance.hits === 1 ? '' : 's'}`;
  const more = shown < concordance.hits ? `; the first ${shown} shown (--limit to see more)` : '';
  return `${text}${hits}${more}.\n`;
}

function limitOf(text: string): number {
  return argumentOrExit(() => parseWholeNumber('limit', text, 1, 1000));
}

/** One line per hit (video id, language, time, title, snippet with [matches], link), then the totals. */
export function formatResults(results: SearchResults): string {
  let text = '';
  let shown = 0;
  for (const group of results.groups) {
    for (const hit of group.hits) {
      const time = hit.start === null ? '-' : clockTime(hit.start);
      text += `${group.videoId}  ${printable(group.language)}  ${time}  ${readable(group.title)}  ${marked(hit.snippet)}  ${hit.url}\n`;
      shown++;
    }
  }
  const videos = `${results.videos.toLocaleString('en-US')} video${results.videos === 1 ? '' : 's'}`;
  const hits = `${results.hits.toLocaleString('en-US')} hit${results.hits === 1 ? '' : 's'}`;
  const more = shown < results.hits ? `; the first ${shown} shown (--limit to see more)` : '';
  return `${text}${hits} in ${videos}${more}.\n`;
}

/** The snippet on one line, each match in [brackets]. */
function marked(snippet: readonly SnippetPart[]): string {
  return snippet
    .map((part) => {
      const shown = readable(part.text);
      return part.match ? `[${shown}]` : shown;
    })
    .join('');
}
