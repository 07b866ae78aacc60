import { ErrorMessage } from '../../components/ErrorMessage';
import { clockTime } from '../../../../shared/video-links';
import { formatCount, plural } from '../../lib/format';
import { readerStore, useLibrary, useReader } from '../../stores';
import type { SearchAnswer } from '../../stores/library';

type Group = SearchAnswer['groups'][number];
type Hit = Group['hits'][number];

/** What the search found, in words: counts in all, a refusal said plainly, or that nothing matched. */
export function SearchSummary() {
  const query = useLibrary((state) => state.query);
  const searching = useLibrary((state) => state.searching);
  const answer = useLibrary((state) => state.answer);
  const error = useLibrary((state) => state.error);
  if (query.trim() === '') {
    return (
      <p className="library-count muted" role="status">
        Type a word to search the transcripts of every job on this computer.
      </p>
    );
  }
  if (error !== null && !searching) return <ErrorMessage error={error} />;
  let text = 'Searching…';
  if (answer !== null && !searching) {
    const { result } = answer;
    const shown = result.groups.reduce((sum, group) => sum + group.hits.length, 0);
    text =
      result.hits === 0
        ? `No transcript matches “${answer.request.query}”.`
        : `${plural(result.videos, 'video')}, ${plural(result.hits, 'hit')} in all` +
          (shown < result.hits ? `; the first ${formatCount(shown)} hits are shown.` : '.');
  }
  return (
    <p className="library-count" role="status">
      {text}
    </p>
  );
}

/** The hits grouped by video, best video first; pressing a hit opens the reader there. */
export function SearchResults() {
  const answer = useLibrary((state) => state.answer);
  if (answer === null || answer.result.groups.length === 0) return null;
  return (
    <ol className="result-groups" aria-label="Videos found">
      {answer.result.groups.map((group) => (
        <ResultGroup key={group.transcriptId} group={group} query={answer.request.query} />
      ))}
    </ol>
  );
}

function ResultGroup({ group, query }: { group: Group; query: string }) {
  const title = group.title || `Video ${group.videoId}`;
  const facts = [group.channelTitle, group.language, plural(group.hits.length, 'hit')].filter(
    (fact) => fact !== null && fact !== '',
  );
  return (
    <li className="card result-group">
      <h3 className="clamp-2" title={title}>
        {title}
      </h3>
      <p className="result-facts muted">{facts.join(' · ')}</p>
      <ul className="hits">
        {group.hits.map((hit) => (
          <li key={hit.segment}>
            <HitButton transcriptId={group.transcriptId} hit={hit} query={query} />
          </li>
        ))}
      </ul>
    </li>
  );
}

function HitButton({ transcriptId, hit, query }: { transcriptId: number; hit: Hit; query: string }) {
  const open = useReader(
    (state) =>
      state.open?.place === 'library' &&
      state.open.transcriptId === transcriptId &&
      state.current === hit.segment,
  );
  return (
    <button
      type="button"
      className={`hit${open ? ' hit-open' : ''}`}
      aria-current={open || undefined}
      onClick={() => void readerStore.getState().show('library', transcriptId, query, hit.segment)}
    >
      <span className="hit-time">{hit.start === null ? '' : clockTime(hit.start)}</span>
      <span className="hit-snippet">
        {hit.snippet.map((part, index) => (part.match ? <mark key={index}>{part.text}</mark> : part.text))}
      </span>
    </button>
  );
}
