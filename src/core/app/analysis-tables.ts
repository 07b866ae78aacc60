import type { DistinctiveWords, Trend, TrendCell } from '../../shared/contract';
import { csvRecord, idCell, textCell } from '../export';

/**
 * The Library's trends and distinctive words as CSV, with the corpus tables' cell rules (free text
 * neutralised for spreadsheets, identifiers exact): what `trends --csv`, `words --csv` and the Trends
 * view's Download CSV write.
 */

export const TREND_CSV_HEADER = [
  'query',
  'group',
  'period',
  'from',
  'to',
  'low',
  'high',
  'count_low',
  'count_high',
  'of_low',
  'of_high',
];

/** One line per series and period, then one per series for its undated videos (period `undated`). */
export function trendCsv(trend: Trend): string {
  let text = csvRecord(TREND_CSV_HEADER);
  const line = (query: string, group: string, period: string, from: string, to: string, cell: TrendCell) =>
    csvRecord([
      textCell(query),
      textCell(group),
      period,
      from,
      to,
      numberCell(cell.low),
      numberCell(cell.high),
      numberCell(cell.count.low),
      numberCell(cell.count.high),
      numberCell(cell.of?.low ?? null),
      numberCell(cell.of?.high ?? null),
    ]);
  for (const series of trend.series) {
    const group = series.group === null ? '' : series.label;
    trend.periods.forEach((period, p) => {
      const cell = series.values[p];
      if (cell !== undefined) text += line(series.query, group, period.label, period.from, period.to, cell);
    });
    text += line(series.query, group, 'undated', '', '', series.undated);
  }
  return text;
}

export const WORDS_CSV_HEADER = ['word', 'target', 'reference', 'log_likelihood'];

export function distinctiveWordsCsv(words: DistinctiveWords): string {
  return (
    csvRecord(WORDS_CSV_HEADER) +
    words.words
      .map((word) =>
        csvRecord([
          idCell(word.word),
          String(word.target),
          String(word.reference),
          word.logLikelihood.toFixed(3),
        ]),
      )
      .join('')
  );
}

/** A figure as written: shares to 6 decimals, seconds to the millisecond; empty when there is none. */
function numberCell(value: number | null): string {
  if (value === null) return '';
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
}
