import { formatCount } from '../lib/format';
import { useLibrary } from '../stores';

/**
 * How far the app has come preparing the stored transcripts (indexing them for search, deriving them
 * for export) after an upgrade that asks for it, on every screen: searches meanwhile find what is
 * prepared so far, and exports take longer, which the user should know.
 */
export function PreparationStatus() {
  const preparing = useLibrary((state) => state.indexing);
  if (preparing === null) return null;
  const { done, total } = preparing;
  return (
    <p className="message preparation-status" role="status">
      {done < total
        ? `Preparing your stored transcripts for search and export: ${formatCount(done)} of ${formatCount(total)}. Searches find what is prepared so far; exports take longer meanwhile.`
        : `Your stored transcripts are prepared for search and export: ${formatCount(done)} of ${formatCount(total)}.`}
    </p>
  );
}
