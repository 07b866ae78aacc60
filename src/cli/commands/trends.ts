import type { Command } from 'commander';
import { printable, trendCsv } from '../../core/app';
import {
  TREND_GROUPINGS,
  TREND_MEASURES,
  type Trend,
  type TrendCell,
  type TrendMeasure,
} from '../../shared/contract';
import { PERIOD_UNITS } from '../../shared/periods';
import { argumentOrExit } from '../argument-error';
import { withApp } from '../environment';
import { CliExit, ExitCode } from '../exit';
import { parseWholeNumber } from '../job-options';
import { jobNumber } from '../job-number';
import { indexingReporter } from './search';

interface TrendsFlags {
  by: string;
  per?: string;
  measure: string;
  job?: string;
  lang?: string;
  channel?: string;
  publishedAfter?: string;
  publishedBefore?: string;
  limit?: string;
  json: boolean;
  csv: boolean;
  dataDir?: string;
}

/** Groups shown with --per when --limit is not given. */
const DEFAULT_GROUPS = 10;

/**
 * `scriptorium trends QUERY...`: what each query (one to five, in the search's language) matches per
 * period of the videos' publication, with the lowest and highest each figure can be where dates are
 * intervals (docs/product.md, "Trends"): a compact table and a sparkline per query, or CSV, or JSON.
 * Exit 0 when some query matches, 1 when none does, 2 for a query it cannot read or bad options.
 */
export function registerTrendsCommand(program: Command): void {
  program
    .command('trends')
    .description('Count what queries match per day, week, month or year of the videos’ publication.')
    .argument('<query...>', 'one to five queries, each quoted for the shell as one argument')
    .option('--by <period>', `${PERIOD_UNITS.join(', ')}`, 'month')
    .option('--per <group>', `a series per ${TREND_GROUPINGS.join(', ')}`)
    .option(
      '--measure <measure>',
      'videos (matching), share (of the period’s videos), hits, airtime (share of caption seconds)',
      'videos',
    )
    .option('--job <n>', 'only the videos of this job')
    .option('--lang <code>', 'only transcripts in this language or a variant of it')
    .option('--channel <text>', "only videos whose channel's name holds this text")
    .option('--published-after <date>', 'only periods from the one holding this day (YYYY-MM-DD)')
    .option('--published-before <date>', 'only periods up to the one holding this day (YYYY-MM-DD)')
    .option(
      '--limit <n>',
      `with --per, the groups with the most matching videos shown (default ${DEFAULT_GROUPS})`,
    )
    .option('--json', "print the contract's libraryTrends answer", false)
    .option(
      '--csv',
      'print CSV: query,group,period,from,to,low,high,count_low,count_high,of_low,of_high',
      false,
    )
    .option('--data-dir <dir>', 'the folder holding the database (or SCRIPTORIUM_DATA_DIR)')
    .action(async (queries: string[], flags: TrendsFlags) => {
      if (flags.json && flags.csv) throw new CliExit(ExitCode.badInput, 'Choose --json or --csv, not both.');
      if (queries.length > 5)
        throw new CliExit(
          ExitCode.badInput,
          `A trend compares at most 5 queries; ${queries.length} were given.`,
        );
      const request = {
        queries,
        by: oneOf('--by', flags.by, PERIOD_UNITS),
        per: flags.per === undefined ? null : oneOf('--per', flags.per, TREND_GROUPINGS),
        measure: oneOf('--measure', flags.measure, TREND_MEASURES),
        jobId: flags.job === undefined ? null : jobNumber(flags.job),
        language: flags.lang ?? null,
        channel: flags.channel ?? null,
        publishedAfter: flags.publishedAfter ?? null,
        publishedBefore: flags.publishedBefore ?? null,
        limit: argumentOrExit(() =>
          flags.limit === undefined ? DEFAULT_GROUPS : parseWholeNumber('--limit', flags.limit, 1, 1000),
        ),
      };
      const trend = await withApp({ ...flags, onIndexing: indexingReporter() }, async (api, app) => {
        await app.libraryIndexed;
        return api.libraryTrends(request);
      });
      if (flags.json) process.stdout.write(`${JSON.stringify(trend, null, 2)}\n`);
      else if (flags.csv) process.stdout.write(trendCsv(trend));
      else process.stdout.write(formatTrend(trend));
      if (!trend.series.some(matchesAnything)) process.exitCode = ExitCode.nothingFound;
    });
}

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CliExit(ExitCode.badInput, `${option} ${value}: expected one of ${allowed.join(', ')}.`);
}

function matchesAnything(series: Trend['series'][number]): boolean {
  return series.undated.count.high > 0 || series.values.some((cell) => cell.count.high > 0);
}

/** What the table's figures are, in words. */
const MEASURE_WORDS: Record<TrendMeasure, string> = {
  videos: 'matching videos',
  share: 'share of the videos published in the period that match',
  hits: 'hits',
  airtime: 'share of the captions’ airtime that matches',
};

/**
 * A block per group (one without --per): a line per period, a column per query, each figure `low`
 * or `low–high`; the undated videos last; then a sparkline per query, of the middle of each band.
 */
export function formatTrend(trend: Trend): string {
  const queries = [...new Set(trend.series.map((series) => series.query))];
  const groups = [...new Set(trend.series.map((series) => series.label))];
  let text = `${capitalised(MEASURE_WORDS[trend.measure])} per ${trend.by}; a range where publication dates are known only roughly.\n`;
  for (const label of groups) {
    const series = queries.map((query) => trend.series.find((s) => s.label === label && s.query === query));
    if (trend.series[0]?.group !== null) text += `\n${printable(label)}\n`;
    const rows = [
      ['', ...queries.map((query) => printable(query))],
      ...trend.periods.map((period, p) => [
        period.label,
        ...series.map((s) => figure(s?.values[p], trend.measure)),
      ]),
      ['undated', ...series.map((s) => figure(s?.undated, trend.measure))],
    ];
    text += table(rows);
    for (const s of series) {
      if (s === undefined) continue;
      const first = trend.periods[0]?.label ?? '';
      const last = trend.periods[trend.periods.length - 1]?.label ?? '';
      text += `${printable(s.query)}  ${sparkline(s.values)}  ${first}${last === first ? '' : ` to ${last}`}\n`;
    }
  }
  if (trend.periods.length === 0) text += 'No video of this scope has a publication date.\n';
  return text;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A cell as the table shows it: a count, or a share in per cent; "low–high" when they differ. */
function figure(cell: TrendCell | undefined, measure: TrendMeasure): string {
  if (cell === undefined || cell.low === null || cell.high === null) return '-';
  const shown = (value: number) =>
    measure === 'share' || measure === 'airtime'
      ? `${(100 * value).toFixed(1)} %`
      : value.toLocaleString('en-US');
  return cell.low === cell.high ? shown(cell.low) : `${shown(cell.low)}–${shown(cell.high)}`;
}

/** Columns padded to their widest cell: the first to the left, the figures to the right. */
function table(rows: string[][]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length))) ?? [];
  return rows
    .map(
      (row) =>
        row
          .map((cell, column) => {
            const pad = ' '.repeat((widths[column] ?? 0) - [...cell].length);
            return column === 0 ? cell + pad : pad + cell;
          })
          .join('  ')
          .trimEnd() + '\n',
    )
    .join('');
}

const BARS = '▁▂▃▄▅▆▇█';

/** The middle of each period's band, as a bar of eight heights against the series' highest; a gap for none. */
export function sparkline(values: readonly TrendCell[]): string {
  const middles = values.map((cell) =>
    cell.low === null || cell.high === null ? null : (cell.low + cell.high) / 2,
  );
  const highest = Math.max(0, ...middles.map((middle) => middle ?? 0));
  return middles
    .map((middle) => {
      if (middle === null) return ' ';
      const level = highest === 0 ? 0 : Math.round((middle / highest) * (BARS.length - 1));
      return BARS[level] ?? BARS[0];
    })
    .join('');
}
