import * as Plot from '@observablehq/plot';
import { useEffect, useRef, useState } from 'react';
import { cellDetail, cellText, isShare, MEASURE_WORDS } from '../../lib/trend-figures';
import { trendsStore } from '../../stores';
import type { PickedPeriod, TrendAnswer } from '../../stores/trends';

/** One point of a series: its period, its band and its middle (NaN where there is no figure). */
interface Point {
  query: string;
  group: string | null;
  label: string;
  date: Date;
  low: number;
  high: number;
  middle: number;
  tip: string;
  picked: PickedPeriod;
}

function pointsOf(trend: TrendAnswer): Point[] {
  const scale = isShare(trend.measure) ? 100 : 1;
  return trend.series.flatMap((series) =>
    trend.periods.map((period, p) => {
      const cell = series.values[p];
      const low = cell?.low ?? Number.NaN;
      const high = cell?.high ?? Number.NaN;
      const where = series.group === null ? '' : ` (${series.label})`;
      return {
        query: series.query,
        group: series.group,
        label: series.label,
        date: new Date(`${period.from}T00:00:00Z`),
        low: low * scale,
        high: high * scale,
        middle: ((low + high) / 2) * scale,
        tip: `${series.query}${where}, ${period.label}: ${cellText(cell, trend.measure)}\n${cellDetail(cell, trend.measure)}`,
        picked: {
          query: series.query,
          group: series.group,
          label: series.label,
          period: period.label,
          from: period.from,
          to: period.to,
        },
      };
    }),
  );
}

/** What the chart shows, said in one sentence for a screen reader (the table beside it has the figures). */
function describe(trend: TrendAnswer): string {
  const queries = [...new Set(trend.series.map((series) => series.query))].join(', ');
  const first = trend.periods[0]?.label ?? '';
  const last = trend.periods[trend.periods.length - 1]?.label ?? '';
  const groups = trend.series[0]?.group === null ? '' : ', one small chart per group';
  return `${MEASURE_WORDS[trend.measure].axis} per ${trend.by} for ${queries}, ${first} to ${last}${groups}: each line runs through the middle of its band, which spans the lowest and highest the dates allow. The table below holds every figure.`;
}

/**
 * The trend drawn with Observable Plot (bench/RESULTS.md, "Trends: the charting library"): a line per
 * query through the middle of its band, the band from the lowest to the highest figure the dates
 * allow, labelled at its end; small multiples per group. Pointing shows a period's exact figures;
 * a click lists its hits. The SVG is what Save chart writes.
 */
export function TrendChart({
  trend,
  onSvg,
}: {
  trend: TrendAnswer;
  onSvg: (svg: SVGSVGElement | null) => void;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = holder.current;
    if (element === null) return;
    const observer = new ResizeObserver(() => setWidth(Math.floor(element.clientWidth)));
    observer.observe(element);
    setWidth(Math.floor(element.clientWidth));
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    const element = holder.current;
    if (element === null || width === 0 || trend.periods.length === 0) return;
    const svg = drawn(trend, width);
    element.replaceChildren(svg);
    onSvg(svg);
    const pick = () => {
      const point = (svg as unknown as { value: Point | null }).value;
      if (point) void trendsStore.getState().pick(point.picked);
    };
    svg.addEventListener('click', pick);
    // Pointing redraws the rule and the tip, named again by Plot: the image stays one image.
    const names = new MutationObserver(() => unnamedInside(svg));
    names.observe(svg, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-label'] });
    return () => {
      names.disconnect();
      svg.removeEventListener('click', pick);
      onSvg(null);
    };
  }, [trend, width, onSvg]);
  return <div ref={holder} className="trend-chart" />;
}

function drawn(trend: TrendAnswer, width: number): SVGSVGElement {
  const points = pointsOf(trend);
  const grouped = trend.series[0]?.group != null;
  const groups = new Set(trend.series.map((series) => series.label)).size;
  const facet = grouped ? { fy: 'label' as const } : {};
  const few = trend.periods.length <= 40;
  const svg = Plot.plot({
    width,
    height: grouped ? Math.max(220, 24 + groups * 130) : 320,
    marginLeft: 56,
    marginRight: 110,
    style: { background: 'transparent', fontSize: '12px' },
    x: { type: 'utc', label: null },
    y: { label: MEASURE_WORDS[trend.measure].axis, grid: true, zero: true },
    // Each small chart is named inside its own frame, at its top left, so that a long name fits.
    fy: grouped ? { label: null, axis: null, padding: 0.2 } : undefined,
    color: { type: 'ordinal', scheme: 'observable10' },
    marks: [
      Plot.areaY(points, { x: 'date', y1: 'low', y2: 'high', fill: 'query', fillOpacity: 0.25, ...facet }),
      Plot.lineY(points, { x: 'date', y: 'middle', stroke: 'query', strokeWidth: 2, ...facet }),
      few ? Plot.dot(points, { x: 'date', y: 'middle', fill: 'query', r: 2.5, ...facet }) : null,
      Plot.text(
        points,
        Plot.selectLast({
          x: 'date',
          y: 'middle',
          z: 'query',
          text: 'query',
          fill: 'query',
          dx: 6,
          textAnchor: 'start',
          ...facet,
        }),
      ),
      grouped
        ? Plot.text([...new Set(points.map((point) => point.label))], {
            fy: (label: string) => label,
            text: (label: string) => (label.length > 48 ? `${label.slice(0, 47)}…` : label),
            frameAnchor: 'top-left',
            dx: 4,
            dy: 2,
            fontWeight: 'bold',
          })
        : null,
      Plot.ruleX(points, Plot.pointerX({ x: 'date', stroke: 'currentColor', strokeOpacity: 0.35, ...facet })),
      Plot.tip(points, Plot.pointerX({ x: 'date', y: 'middle', title: 'tip', ...facet })),
    ],
  }) as SVGSVGElement;
  unnamedInside(svg);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', describe(trend));
  return svg;
}

/**
 * The drawing is one image to a screen reader, named by what it shows (the table beside it has the
 * figures): the names Plot gives its marks' groups, which no role allows, are taken away.
 */
function unnamedInside(svg: SVGSVGElement): void {
  svg.querySelectorAll('[aria-label], [aria-description]').forEach((element) => {
    element.removeAttribute('aria-label');
    element.removeAttribute('aria-description');
  });
}
