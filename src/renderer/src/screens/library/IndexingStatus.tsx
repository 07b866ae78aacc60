import { formatCount } from '../../lib/format';
import { useLibrary } from '../../stores';

/**
 * How far the app has come indexing the stored transcripts for search, after an upgrade that asks
 * for it: searches meanwhile find what is indexed so far, which the user should know.
 */
export function IndexingStatus() {
  const indexing = useLibrary((state) => state.indexing);
  if (indexing === null) return null;
  const { done, total } = indexing;
  return (
    <p className="message library-indexing" role="status">
      {done < total
        ? `Indexing your stored transcripts for search: ${formatCount(done)} of ${formatCount(total)}. Searches find what is indexed so far.`
        : `Your stored transcripts are indexed for search: ${formatCount(done)} of ${formatCount(total)}.`}
    </p>
  );
}
