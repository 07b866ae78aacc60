import { cellDetail, cellText } from '../../lib/trend-figures';
import { trendsStore, useTrends } from '../../stores';
import type { TrendAnswer } from '../../stores/trends';

/**
 * Every figure of the trend as a table, the chart's accessible twin: a line per period, a column per
 * query (and group); each figure is a button that lists the hits of that query in that period.
 */
export function TrendTable({ trend }: { trend: TrendAnswer }) {
  const picked = useTrends((state) => state.picked);
  const grouped = trend.series[0]?.group !== null;
  const name = (series: TrendAnswer['series'][number]) =>
    grouped ? `${series.query}, ${series.label}` : series.query;
  return (
    <div className="table-scroll" role="region" aria-label="Trend figures" tabIndex={0}>
      <table className="trend-table">
        <caption>Every figure of the trend; choose one to list its hits.</caption>
        <thead>
          <tr>
            <th scope="col">Period</th>
            {trend.series.map((series) => (
              <th key={`${series.query}\n${series.label}`} scope="col">
                {name(series)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {trend.periods.map((period, p) => (
            <tr key={period.label}>
              <th scope="row">{period.label}</th>
              {trend.series.map((series) => {
                const cell = series.values[p];
                const text = cellText(cell, trend.measure);
                const current =
                  picked?.period === period.label &&
                  picked.query === series.query &&
                  picked.label === series.label;
                return (
                  <td key={`${series.query}\n${series.label}`}>
                    <button
                      type="button"
                      className="link-button"
                      title={cellDetail(cell, trend.measure)}
                      aria-label={`${name(series)} in ${period.label}: ${text}. List its hits`}
                      aria-pressed={current}
                      onClick={() =>
                        void trendsStore.getState().pick({
                          query: series.query,
                          group: series.group,
                          label: series.label,
                          period: period.label,
                          from: period.from,
                          to: period.to,
                        })
                      }
                    >
                      {text}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
          <tr>
            <th scope="row">Undated</th>
            {trend.series.map((series) => (
              <td key={`${series.query}\n${series.label}`} title={cellDetail(series.undated, trend.measure)}>
                {cellText(series.undated, trend.measure)}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
    </div>
  );
}
