import { ScreenHeading } from '../../components/ScreenHeading';
import { useReader } from '../../stores';
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
