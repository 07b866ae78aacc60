import type { TrendCell, TrendMeasure } from '../../../shared/contract';
import { formatCount } from './format';

/** What a trend's figures are, in words, for the axis, the table and the summary. */
export const MEASURE_WORDS: Record<TrendMeasure, { axis: string; option: string }> = {
  videos: { axis: 'Matching videos', option: 'Matching videos' },
  share: { axis: 'Share of the videos (%)', option: 'Share of the period’s videos' },
  hits: { axis: 'Hits', option: 'Hits (captions)' },
  airtime: { axis: 'Share of airtime (%)', option: 'Share of the captions’ airtime' },
};

/** Whether the measure is a share (shown in per cent). */
export function isShare(measure: TrendMeasure): boolean {
  return measure === 'share' || measure === 'airtime';
}

/** A figure as the screen says it: a count, or a share in per cent to one decimal. */
export function figureText(value: number, measure: TrendMeasure): string {
  return isShare(measure) ? `${(100 * value).toFixed(1)} %` : formatCount(value);
}

/** A cell: "12", or "10–14" where dates are intervals; "–" for a share no video can have. */
export function cellText(cell: TrendCell | undefined, measure: TrendMeasure): string {
  if (cell === undefined || cell.low === null || cell.high === null) return '–';
  const low = figureText(cell.low, measure);
  return cell.low === cell.high ? low : `${low} to ${figureText(cell.high, measure)}`;
}

/** What a cell is made of, for a tooltip: "3 to 5 of 40 to 42 videos", or the seconds of airtime. */
export function cellDetail(cell: TrendCell | undefined, measure: TrendMeasure): string {
  if (cell === undefined) return '';
  const range = ({ low, high }: { low: number; high: number }, digits = 0) =>
    low === high ? low.toFixed(digits) : `${low.toFixed(digits)} to ${high.toFixed(digits)}`;
  switch (measure) {
    case 'videos':
      return `${range(cell.count)} matching videos`;
    case 'hits':
      return `${range(cell.count)} hits`;
    case 'share':
      return cell.of === null ? '' : `${range(cell.count)} of ${range(cell.of)} videos match`;
    case 'airtime':
      return cell.of === null
        ? ''
        : `${range(cell.count, 1)} of ${range(cell.of, 1)} seconds of captions match`;
  }
}
