import { clockTime } from '../../../../shared/video-links';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formatCount, plural } from '../../lib/format';
import { readerStore, trendsStore, useTrends } from '../../stores';
import { publishedText } from './ConcordanceView';

/**
 * The hits of the period picked on the chart or in the table: each in its context, with its video's
 * date (said to be only maybe in the period when its interval reaches past it); each opens the
 * reader at its time.
 */
export function PeriodHits() {
  const picked = useTrends((state) => state.picked);
  const hits = useTrends((state) => state.periodHits);
  const error = useTrends((state) => state.periodHitsError);
  if (picked === null) return null;
  const where = picked.group === null ? '' : ` (${picked.label})`;
  return (
    <section className="card period-hits" aria-label={`Hits in ${picked.period}`}>
      <div className="reader-header">
        <h2>
          “{picked.query}”{where} in {picked.period}
        </h2>
        <button type="button" onClick={() => void trendsStore.getState().pick(null)}>
          Close hits
        </button>
      </div>
      <ErrorMessage error={error} />
      {hits === null ? (
        error === null && (
          <p className="muted" role="status">
            Reading the hits…
          </p>
        )
      ) : (
        <>
          <p role="status">
            {plural(hits.hits, 'hit')} in videos published in {picked.period} for sure or maybe
            {hits.rows.length < hits.hits ? `; the first ${formatCount(hits.rows.length)} are listed` : ''}.
          </p>
          <ol className="period-hit-list">
            {hits.rows.map((row) => {
              const title = row.title || `Video ${row.videoId}`;
              const surely =
                row.publishedFrom !== null &&
                row.publishedFrom >= picked.from &&
                (row.publishedTo ?? '') <= picked.to;
              const time = row.start === null ? null : clockTime(row.start);
              return (
                <li key={`${row.transcriptId}-${row.segment}`}>
                  <p className="period-hit-facts muted">
                    {title} · {row.channelTitle ?? 'no channel named'} · published{' '}
                    {publishedText(row.publishedFrom, row.publishedTo)}
                    {surely ? '' : ' (maybe in this period)'}
                  </p>
                  <p className="period-hit-text">
                    {row.left} <mark>{row.match}</mark> {row.right}
                  </p>
                  <button
                    type="button"
                    onClick={() =>
                      void readerStore.getState().show('library', row.transcriptId, picked.query, row.segment)
                    }
                  >
                    {time === null ? `Read “${title}”` : `Read at ${time}`}
                  </button>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </section>
  );
}
