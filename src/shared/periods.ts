/**
 * The periods a trend counts in (docs/product.md, "Trends"): days, ISO weeks (Monday to Sunday),
 * calendar months and years, in UTC, as the publication dates are (shared/published.ts). A day is a
 * whole number, days since 1970-01-01; a period is a whole number too, counted from the period that
 * holds day 0, so that consecutive periods are consecutive numbers.
 */

export const PERIOD_UNITS = ['day', 'week', 'month', 'year'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

const DAY_MS = 86_400_000;

/** The day (days since 1970-01-01) of a YYYY-MM-DD date; NaN for one that names no day. */
export function dayNumber(date: string): number {
  const at = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== date ? Number.NaN : at / DAY_MS;
}

/** YYYY-MM-DD of a day number. */
export function dayDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The period of `unit` that holds the day. 1970-01-01 was a Thursday: its week began on day -3. */
export function periodOf(day: number, unit: PeriodUnit): number {
  switch (unit) {
    case 'day':
      return day;
    case 'week':
      return Math.floor((day + 3) / 7);
    case 'month': {
      const date = new Date(day * DAY_MS);
      return (date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth();
    }
    case 'year':
      return new Date(day * DAY_MS).getUTCFullYear() - 1970;
  }
}

/** The first and last days of a period. */
export function periodDays(period: number, unit: PeriodUnit): { first: number; last: number } {
  switch (unit) {
    case 'day':
      return { first: period, last: period };
    case 'week':
      return { first: period * 7 - 3, last: period * 7 + 3 };
    case 'month': {
      const year = 1970 + Math.floor(period / 12);
      const month = period - (year - 1970) * 12;
      return {
        first: Date.UTC(year, month, 1) / DAY_MS,
        last: Date.UTC(year, month + 1, 1) / DAY_MS - 1,
      };
    }
    case 'year':
      return {
        first: Date.UTC(1970 + period, 0, 1) / DAY_MS,
        last: Date.UTC(1971 + period, 0, 1) / DAY_MS - 1,
      };
  }
}

/** How a period is named: 2024-05-03, 2024-W18 (ISO week), 2024-05, 2024. */
export function periodLabel(period: number, unit: PeriodUnit): string {
  const { first } = periodDays(period, unit);
  const date = dayDate(first);
  switch (unit) {
    case 'day':
      return date;
    case 'week': {
      // The ISO week's year is the year of its Thursday.
      const thursday = new Date((first + 3) * DAY_MS);
      const year = thursday.getUTCFullYear();
      const week = Math.floor((first + 3 - Date.UTC(year, 0, 1) / DAY_MS) / 7) + 1;
      return `${year}-W${String(week).padStart(2, '0')}`;
    }
    case 'month':
      return date.slice(0, 7);
    case 'year':
      return date.slice(0, 4);
  }
}

/** The period a label names (2024, 2024-05, 2024-W18, 2024-05-03), or undefined when it names none. */
export function parsePeriod(label: string): { unit: PeriodUnit; period: number } | undefined {
  const text = label.trim();
  if (/^\d{4}$/.test(text)) return { unit: 'year', period: Number(text) - 1970 };
  const month = /^(\d{4})-(\d{2})$/.exec(text);
  if (month !== null) {
    const number = Number(month[2]);
    return number >= 1 && number <= 12
      ? { unit: 'month', period: (Number(month[1]) - 1970) * 12 + number - 1 }
      : undefined;
  }
  const week = /^(\d{4})-W(\d{2})$/.exec(text);
  if (week !== null) {
    // Week 1 holds the year's first Thursday, so January 4th.
    const period = periodOf(Date.UTC(Number(week[1]), 0, 4) / DAY_MS, 'week') + Number(week[2]) - 1;
    return periodLabel(period, 'week') === text ? { unit: 'week', period } : undefined;
  }
  const day = dayNumber(text);
  return Number.isNaN(day) ? undefined : { unit: 'day', period: day };
}
