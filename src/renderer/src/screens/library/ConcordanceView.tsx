import { useEffect } from 'react';
import { CONCORDANCE_ORDERS, type ConcordanceOrder, type ConcordanceRow } from '../../../../shared/contract';
import { clockTime } from '../../../../shared/video-links';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formatCount } from '../../lib/format';
import { concordanceStore, readerStore, useConcordance, useLibrary, useReader } from '../../stores';
import { LibraryActions } from './LibraryActions';
import { SearchForm } from './SearchForm';
import { SearchSummary } from './SearchResults';
import { TranscriptReader } from './TranscriptReader';

const ORDER_WORDS: Record<ConcordanceOrder, string> = {
  relevance: 'Relevance (as the search ranks)',
  date: 'Date published',
  channel: 'Channel',
  left: 'Words to the left',
  right: 'Words to the right',
};

/**
 * The concordance of the search shown: each hit on a line, the words before it, the match and the
 * words after, sortable by date, channel or the words around the match; a line's time opens the
 * reader there, and Export hits writes them all.
 */
export function ConcordanceView() {
  const answer = useLibrary((state) => state.answer);
  const options = useConcordance((state) => state.options);
  const reading = useReader((state) => state.open?.place === 'library');
  useEffect(() => void concordanceStore.getState().load(answer?.request ?? null), [answer]);
  return (
    <>
      <SearchForm />
      <SearchSummary />
      <div className="concordance-options">
        <div className="field">
          <label htmlFor="concordance-sort">Sort by</label>
          <select
            id="concordance-sort"
            value={options.sort}
            onChange={(event) =>
              concordanceStore.getState().setOptions({ sort: event.target.value as ConcordanceOrder })
            }
          >
            {CONCORDANCE_ORDERS.map((order) => (
              <option key={order} value={order}>
                {ORDER_WORDS[order]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="concordance-context">Words each side</label>
          <input
            id="concordance-context"
            type="number"
            min={1}
            max={50}
            value={options.context}
            onChange={(event) => {
              const words = Number(event.target.value);
              if (Number.isInteger(words) && words >= 1 && words <= 50)
                concordanceStore.getState().setOptions({ context: words });
            }}
          />
        </div>
      </div>
      <LibraryActions concordance={options} />
      <div className={reading ? 'library-layout library-reading' : 'library-layout'}>
        <ConcordanceTable />
        <TranscriptReader place="library" />
      </div>
    </>
  );
}

function ConcordanceTable() {
  const answer = useConcordance((state) => state.answer);
  const error = useConcordance((state) => state.error);
  if (error !== null) return <ErrorMessage error={error} />;
  if (answer === null || answer.result.rows.length === 0) return null;
  const { rows, hits } = answer.result;
  return (
    <div className="concordance">
      {rows.length < hits && (
        <p className="muted" role="status">
          The first {formatCount(rows.length)} of {formatCount(hits)} hits are shown; Export hits writes them
          all.
        </p>
      )}
      <div className="table-scroll" role="region" aria-label="Concordance lines" tabIndex={0}>
        <table className="concordance-table">
          <caption className="visually-hidden">
            Concordance of “{answer.request.query}”: each hit with the words around it
          </caption>
          <thead>
            <tr>
              <th scope="col" className="concordance-left">
                Before
              </th>
              <th scope="col">Match</th>
              <th scope="col">After</th>
              <th scope="col">Time</th>
              <th scope="col">Video</th>
              <th scope="col">Channel</th>
              <th scope="col">Published</th>
              <th scope="col">Language</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <ConcordanceLine
                key={`${row.transcriptId}-${row.segment}`}
                row={row}
                query={answer.request.query}
              />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ConcordanceLine({ row, query }: { row: ConcordanceRow; query: string }) {
  const title = row.title || `Video ${row.videoId}`;
  const time = row.start === null ? 'Read' : clockTime(row.start);
  return (
    <tr>
      <td className="concordance-left" title={row.left}>
        <span>{row.left}</span>
      </td>
      <td className="concordance-match">
        <mark>{row.match}</mark>
      </td>
      <td className="concordance-right" title={row.right}>
        {row.right}
      </td>
      <td>
        <button
          type="button"
          className="link-button"
          aria-label={`Read “${title}” at ${time}`}
          onClick={() => void readerStore.getState().show('library', row.transcriptId, query, row.segment)}
        >
          {time}
        </button>
      </td>
      <td className="concordance-title" title={title}>
        {title}
      </td>
      <td>{row.channelTitle ?? ''}</td>
      <td>{publishedText(row.publishedFrom, row.publishedTo)}</td>
      <td>{row.language}</td>
    </tr>
  );
}

/** "2024-05-03", or "2023-02-07 to 2023-03-13" for a date known only as an interval; "" when undated. */
export function publishedText(from: string | null, to: string | null): string {
  if (from === null || to === null) return '';
  return from === to ? from : `${from} to ${to}`;
}
