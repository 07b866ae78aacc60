import { libraryStore, useJobs, useLibrary } from '../../stores';

/** A job's name in the job filter: its number and title, cut where a menu's line ends. */
function jobOption(id: number, title: string): string {
  const short = title.length > 80 ? `${title.slice(0, 79)}…` : title;
  return `Job ${id}: ${short}`;
}

/** The words to search for and what narrows the search: a job, a language, a channel. */
export function SearchForm() {
  const query = useLibrary((state) => state.query);

  return (
    <form className="library-search" role="search" onSubmit={(event) => event.preventDefault()}>
      <div className="field library-query">
        <label htmlFor="library-query">Search transcripts</label>
        <input
          id="library-query"
          type="search"
          value={query}
          autoComplete="off"
          spellCheck={false}
          maxLength={20_000}
          aria-describedby="library-query-help"
          onChange={(event) => libraryStore.getState().setQuery(event.target.value)}
        />
        <p id="library-query-help" className="help">
          Every word must match. &quot;A phrase&quot; in quotes, <code>learn*</code> for words that begin so,{' '}
          <code>river OR lake</code> for either, <code>-word</code> to leave a word out.
        </p>
      </div>
      <LibraryFilters />
    </form>
  );
}

/** What narrows the Library's search and trends: a job, a language, a channel. */
export function LibraryFilters() {
  const filters = useLibrary((state) => state.filters);
  const order = useJobs((state) => state.order);
  const byId = useJobs((state) => state.byId);
  return (
    <div className="library-filters">
      <div className="field">
        <label htmlFor="library-job">Job</label>
        <select
          id="library-job"
          value={filters.jobId ?? ''}
          onChange={(event) =>
            libraryStore
              .getState()
              .setFilters({ jobId: event.target.value === '' ? null : Number(event.target.value) })
          }
        >
          <option value="">Every job</option>
          {order.map((id) => (
            <option key={id} value={id}>
              {jobOption(id, byId[id]?.title ?? '')}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="library-language">Language</label>
        <input
          id="library-language"
          type="text"
          value={filters.language}
          autoComplete="off"
          spellCheck={false}
          placeholder="any"
          maxLength={50}
          onChange={(event) => libraryStore.getState().setFilters({ language: event.target.value })}
        />
      </div>
      <div className="field">
        <label htmlFor="library-channel">Channel</label>
        <input
          id="library-channel"
          type="text"
          value={filters.channel}
          autoComplete="off"
          placeholder="any"
          maxLength={200}
          onChange={(event) => libraryStore.getState().setFilters({ channel: event.target.value })}
        />
      </div>
    </div>
  );
}
