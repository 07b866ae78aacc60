import type { Command } from 'commander';
import { distinctiveWordsCsv, printable } from '../../core/app';
import type { DistinctiveWords } from '../../shared/contract';
import { argumentOrExit } from '../argument-error';
import { withApp } from '../environment';
import { CliExit, ExitCode } from '../exit';
import { parseWholeNumber } from '../job-options';
import { jobNumber } from '../job-number';
import { plural } from '../plural';
import { indexingReporter } from './search';

interface WordsFlags {
  period?: string;
  ofChannel?: string;
  job?: string;
  lang?: string;
  channel?: string;
  limit?: string;
  json: boolean;
  csv: boolean;
  dataDir?: string;
}

/**
 * `scriptorium words [QUERY]`: the words that set a target apart from the rest of the scope, by
 * log-likelihood (docs/product.md, "Distinctive words"): the transcripts the query matches, the videos
 * published in `--period`, those of `--of-channel`, or where these meet. Exit 0 with words, 1 when
 * none stands out (or the target is empty), 2 for a query or a period it cannot read.
 */
export function registerWordsCommand(program: Command): void {
  program
    .command('words')
    .description(
      'The words a query’s transcripts, a period or a channel use more than the rest of your library.',
    )
    .argument('[query]', 'the transcripts this query matches (the search’s language)')
    .option(
      '--period <period>',
      'the videos surely published in this period: 2024, 2024-05, 2024-W18 or 2024-05-03',
    )
    .option('--of-channel <name>', 'the videos of this channel (its whole name, case ignored)')
    .option('--job <n>', 'only the videos of this job, on both sides')
    .option('--lang <code>', 'only transcripts in this language or a variant of it, on both sides')
    .option('--channel <text>', "only videos whose channel's name holds this text, on both sides")
    .option('--limit <n>', 'words to print, at most (1 to 500; default 25)')
    .option('--json', "print the contract's distinctiveWords answer", false)
    .option('--csv', 'print CSV: word,target,reference,log_likelihood', false)
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action(async (query: string | undefined, flags: WordsFlags) => {
      if (flags.json && flags.csv) throw new CliExit(ExitCode.badInput, 'Choose --json or --csv, not both.');
      const request = {
        query: query ?? null,
        period: flags.period ?? null,
        targetChannel: flags.ofChannel ?? null,
        jobId: flags.job === undefined ? null : jobNumber(flags.job),
        language: flags.lang ?? null,
        channel: flags.channel ?? null,
        limit: argumentOrExit(() =>
          flags.limit === undefined ? 25 : parseWholeNumber('--limit', flags.limit, 1, 500),
        ),
      };
      const words = await withApp({ ...flags, onIndexing: indexingReporter() }, async (api, app) => {
        await app.libraryIndexed;
        return api.distinctiveWords(request);
      });
      if (flags.json) process.stdout.write(`${JSON.stringify(words, null, 2)}\n`);
      else if (flags.csv) process.stdout.write(distinctiveWordsCsv(words));
      else process.stdout.write(formatWords(words));
      if (words.words.length === 0) process.exitCode = ExitCode.nothingFound;
    });
}

/** A line per word (its counts on each side, its G²), then the two sides' sizes. */
export function formatWords(words: DistinctiveWords): string {
  const width = Math.max(4, ...words.words.map((word) => [...printable(word.word)].length));
  let text =
    words.words.length === 0 ? '' : `${'word'.padEnd(width)}  target  rest of scope  log-likelihood\n`;
  for (const word of words.words) {
    const shown = printable(word.word);
    text += `${shown}${' '.repeat(width - [...shown].length)}  ${String(word.target).padStart(6)}  ${String(word.reference).padStart(13)}  ${word.logLikelihood.toFixed(1).padStart(14)}\n`;
  }
  const side = (size: DistinctiveWords['target']) =>
    `${plural(size.words, 'word')} in ${plural(size.videos, 'video')}`;
  text += `Target: ${side(words.target)}; the rest of the scope: ${side(words.reference)}.`;
  if (words.words.length === 0) text += ' No word stands out.';
  return `${text}\n`;
}
