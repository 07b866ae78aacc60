import { useCallback, useEffect, useRef, useState } from 'react';
import {
  TREND_GROUPINGS,
  TREND_MEASURES,
  type TrendGrouping,
  type TrendMeasure,
} from '../../../../shared/contract';
import { PERIOD_UNITS, type PeriodUnit } from '../../../../shared/periods';
import { ErrorMessage } from '../../components/ErrorMessage';
import { MEASURE_WORDS } from '../../lib/trend-figures';
import { trendsStore, useLibrary, useReader, useTrends } from '../../stores';
import { scopeOf } from '../../stores/library';
import { MAX_QUERIES, type TrendAnswer } from '../../stores/trends';
import { PeriodHits } from './PeriodHits';
import { LibraryFilters } from './SearchForm';
import { TranscriptReader } from './TranscriptReader';
import { TrendChart } from './TrendChart';
import { TrendTable } from './TrendTable';

const PERIOD_WORDS: Record<PeriodUnit, string> = { day: 'Day', week: 'Week', month: 'Month', year: 'Year' };
const GROUPING_WORDS: Record<TrendGrouping, string> = {
  channel: 'Per channel',
  job: 'Per job',
  language: 'Per language',
};

/**
 * Trends: up to five queries as chips, counted per period of the videos' publication within the
 * Library's filters; a chart with the band the dates allow (small multiples per channel, job or
 * language), a table of every figure, the hits of a period on a click, CSV and the chart to save.
 */
export function TrendsView() {
  const filters = useLibrary((state) => state.filters);
  const reading = useReader((state) => state.open?.place === 'library');
  useEffect(() => trendsStore.getState().setScope(scopeOf(filters)), [filters]);
  return (
    <>
      <QueryChips />
      <TrendControls />
      <form className="library-search" onSubmit={(event) => event.preventDefault()} aria-label="Scope">
        <LibraryFilters />
      </form>
      <TrendResult />
      <div className={reading ? 'library-layout library-reading' : 'library-layout'}>
        <PeriodHits />
        <TranscriptReader place="library" />
      </div>
    </>
  );
}

function QueryChips() {
  const queries = useTrends((state) => state.queries);
  const draft = useTrends((state) => state.draft);
  const problem = useTrends((state) => state.draftProblem);
  const input = useRef<HTMLInputElement>(null);
  const add = () => {
    if (trendsStore.getState().addQuery()) input.current?.focus();
  };
  return (
    <div className="trend-queries">
      <div className="field">
        <label htmlFor="trend-query">Add a query</label>
        <div className="trend-add">
          <input
            ref={input}
            id="trend-query"
            type="search"
            value={draft}
            autoComplete="off"
            spellCheck={false}
            maxLength={500}
            aria-describedby="trend-query-help"
            aria-invalid={problem !== null || undefined}
            onChange={(event) => trendsStore.getState().setDraft(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
          />
          <button type="button" onClick={add} aria-disabled={queries.length >= MAX_QUERIES || undefined}>
            Add query
          </button>
        </div>
        <p id="trend-query-help" className="help">
          Up to {MAX_QUERIES} queries, in the search’s language (words, &quot;a phrase&quot;,{' '}
          <code>learn*</code>, <code>river OR lake</code>, <code>-word</code>), each counted per period of the
          videos’ publication.
        </p>
        <ErrorMessage error={problem} />
      </div>
      {queries.length > 0 && (
        <ul className="chips" aria-label="Queries charted">
          {queries.map((query) => (
            <li key={query} className="chip">
              <span>{query}</span>
              <button
                type="button"
                className="chip-remove"
                aria-label={`Remove ${query}`}
                onClick={() => trendsStore.getState().removeQuery(query)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function TrendControls() {
  const by = useTrends((state) => state.by);
  const measure = useTrends((state) => state.measure);
  const per = useTrends((state) => state.per);
  return (
    <div className="library-filters trend-controls">
      <div className="field">
        <label htmlFor="trend-by">Period</label>
        <select
          id="trend-by"
          value={by}
          onChange={(event) => trendsStore.getState().setBy(event.target.value as PeriodUnit)}
        >
          {PERIOD_UNITS.map((unit) => (
            <option key={unit} value={unit}>
              {PERIOD_WORDS[unit]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="trend-measure">Measure</label>
        <select
          id="trend-measure"
          value={measure}
          onChange={(event) => trendsStore.getState().setMeasure(event.target.value as TrendMeasure)}
        >
          {TREND_MEASURES.map((each) => (
            <option key={each} value={each}>
              {MEASURE_WORDS[each].option}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="trend-per">Series</label>
        <select
          id="trend-per"
          value={per ?? ''}
          onChange={(event) =>
            trendsStore
              .getState()
              .setPer(event.target.value === '' ? null : (event.target.value as TrendGrouping))
          }
        >
          <option value="">All videos together</option>
          {TREND_GROUPINGS.map((grouping) => (
            <option key={grouping} value={grouping}>
              {GROUPING_WORDS[grouping]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function TrendResult() {
  const queries = useTrends((state) => state.queries);
  const loading = useTrends((state) => state.loading);
  const answer = useTrends((state) => state.answer);
  const error = useTrends((state) => state.error);
  const [svg, setSvg] = useState<SVGSVGElement | null>(null);
  const onSvg = useCallback((drawn: SVGSVGElement | null) => setSvg(drawn), []);
  if (queries.length === 0)
    return (
      <p className="library-count muted" role="status">
        Add a query to see how often your transcripts say it, period by period.
      </p>
    );
  if (error !== null && !loading) return <ErrorMessage error={error} />;
  if (answer === null)
    return (
      <p className="library-count" role="status">
        Counting…
      </p>
    );
  const trend = answer.result;
  return (
    <section className="trend" aria-label="Trend">
      <p className="library-count" role="status">
        {loading ? 'Counting…' : summary(trend)}
      </p>
      {trend.periods.length > 0 && (
        <>
          <TrendChart trend={trend} onSvg={onSvg} />
          <TrendActions trend={trend} svg={svg} />
          <TrendTable trend={trend} />
        </>
      )}
    </section>
  );
}

function summary(trend: TrendAnswer): string {
  if (trend.periods.length === 0) return 'No video of this scope has a publication date to count by.';
  const more =
    trend.groupsMatching > new Set(trend.series.map((series) => series.label)).size
      ? ` The ${new Set(trend.series.map((s) => s.label)).size} groups with the most matching videos are drawn, of ${trend.groupsMatching}.`
      : '';
  return `${MEASURE_WORDS[trend.measure].axis} per ${trend.by}, ${trend.periods[0]?.label} to ${trend.periods[trend.periods.length - 1]?.label}. Where a publication date is known only roughly, the band spans the lowest and highest figure it allows.${more}`;
}

/** Download CSV, and the chart as SVG or PNG: files the browser saves (a download). */
function TrendActions({ trend, svg }: { trend: TrendAnswer; svg: SVGSVGElement | null }) {
  const name = `scriptorium-trend-${trend.by}-${trend.measure}`;
  return (
    <div className="button-row trend-actions">
      <button
        type="button"
        onClick={() => download(new Blob([trend.csv ?? ''], { type: 'text/csv' }), `${name}.csv`)}
      >
        Download CSV
      </button>
      <button
        type="button"
        aria-disabled={svg === null || undefined}
        onClick={() =>
          svg !== null && download(new Blob([standalone(svg)], { type: 'image/svg+xml' }), `${name}.svg`)
        }
      >
        Save chart as SVG
      </button>
      <button
        type="button"
        aria-disabled={svg === null || undefined}
        onClick={() => svg !== null && void png(svg).then((blob) => download(blob, `${name}.png`))}
      >
        Save chart as PNG
      </button>
    </div>
  );
}

function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The chart as a file of its own: its colours and font as on screen, on the screen's background. */
function standalone(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const style = getComputedStyle(svg);
  const background = getComputedStyle(document.body).getPropertyValue('--surface').trim() || '#ffffff';
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.setAttribute(
    'style',
    `color: ${style.color}; font-family: ${style.fontFamily}; background: ${background}`,
  );
  const back = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  back.setAttribute('width', '100%');
  back.setAttribute('height', '100%');
  back.setAttribute('fill', background);
  copy.insertBefore(back, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}

/** The chart drawn at twice its size on a canvas, as PNG. */
async function png(svg: SVGSVGElement): Promise<Blob> {
  const { width, height } = svg.getBoundingClientRect();
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(standalone(svg))}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * 2);
  canvas.height = Math.round(height * 2);
  canvas.getContext('2d')?.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob === null ? reject(new Error('The chart could not be drawn as PNG.')) : resolve(blob)),
      'image/png',
    ),
  );
}
