import { useEffect } from 'react';
import { ScreenHeading } from '../../components/ScreenHeading';
import { readerStore, useLibrary, useReader } from '../../stores';
import type { LibraryState } from '../../stores/library';
import { LibraryActions } from './LibraryActions';
import { SearchForm } from './SearchForm';
import { SearchResults, SearchSummary } from './SearchResults';
import { TranscriptReader } from './TranscriptReader';

/**
 * Every transcript on this computer, searched as the user types: hits grouped by video, each opening
 * the transcript at that moment; the hits export as CSV, the videos as a new job.
 */
export function LibraryScreen() {
  const reading = useReader((state) => state.open?.place === 'library');
  const answer = useLibrary((state) => state.answer);
  useEffect(() => followSearch(answer), [answer]);
  return (
    <>
      <ScreenHeading>Library</ScreenHeading>
      <SearchForm />
      <SearchSummary />
      <LibraryActions />
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
