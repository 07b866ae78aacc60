import { useEffect } from 'react';
import { ScreenHeading } from '../../components/ScreenHeading';
import { routeHref, type LibraryView } from '../../routing';
import { readerStore, useLibrary, useReader } from '../../stores';
import type { LibraryState } from '../../stores/library';
import { ConcordanceView } from './ConcordanceView';
import { IndexingStatus } from './IndexingStatus';
import { LibraryActions } from './LibraryActions';
import { SearchForm } from './SearchForm';
import { SearchResults, SearchSummary } from './SearchResults';
import { TranscriptReader } from './TranscriptReader';
import { TrendsView } from './TrendsView';

/**
 * Every transcript on this computer, in three views: the search, as the user types, with its hits
 * grouped by video, each opening the transcript at that moment (the hits export as CSV, the videos
 * as a new job); the concordance of the same search; and trends, queries counted over time.
 */
export function LibraryScreen({ view }: { view: LibraryView }) {
  const answer = useLibrary((state) => state.answer);
  useEffect(() => followSearch(answer), [answer]);
  return (
    <>
      <ScreenHeading>Library</ScreenHeading>
      <IndexingStatus />
      <LibraryViews view={view} />
      {view === 'search' && <SearchView />}
      {view === 'concordance' && <ConcordanceView />}
      {view === 'trends' && <TrendsView />}
    </>
  );
}

const VIEWS: Array<{ view: LibraryView; href: string; label: string }> = [
  { view: 'search', href: routeHref.library, label: 'Search' },
  { view: 'concordance', href: routeHref.concordance, label: 'Concordance' },
  { view: 'trends', href: routeHref.trends, label: 'Trends' },
];

function LibraryViews({ view }: { view: LibraryView }) {
  return (
    <nav className="library-views" aria-label="Library views">
      {VIEWS.map((each) => (
        <a key={each.view} href={each.href} aria-current={each.view === view ? 'page' : undefined}>
          {each.label}
        </a>
      ))}
    </nav>
  );
}

function SearchView() {
  const reading = useReader((state) => state.open?.place === 'library');
  return (
    <>
      <SearchForm />
      <SearchSummary />
      <LibraryActions concordance={null} />
      <div className={reading ? 'library-layout library-reading' : 'library-layout'}>
        <SearchResults />
        <TranscriptReader place="library" />
      </div>
    </>
  );
}

/**
 * Keeps the reader to the search shown: a transcript the new search still finds is marked for its
 * words, at its first hit; one it does not find (or no search at all) is closed, never left showing
 * the hits of the search before.
 */
function followSearch(answer: LibraryState['answer']): void {
  const { open } = readerStore.getState();
  if (open?.place !== 'library') return;
  const found = answer?.result.groups.some((group) => group.transcriptId === open.transcriptId) ?? false;
  if (answer === null || !found) readerStore.getState().close();
  else if (open.query !== answer.request.query)
    void readerStore.getState().show('library', open.transcriptId, answer.request.query, null);
}
