import { useEffect, useState } from 'react';
import type { JobView, VideoFilter } from '../../../../shared/contract';
import { VIDEO_FILTERS } from '../../../../shared/vocabulary';
import { formatCount, videoStatusLabel } from '../../lib/format';
import { useVideoPages, videoPagesStore } from '../../stores';

/** How long typing in the search box must pause before the table is searched. */
const SEARCH_DELAY_MS = 250;

const FILTERS: ReadonlyArray<{ filter: VideoFilter; label: string; count(job: JobView): number }> =
  VIDEO_FILTERS.map((filter) =>
    filter === 'all'
      ? { filter, label: 'All', count: (job) => job.counts.total }
      : { filter, label: videoStatusLabel(filter), count: (job) => job.counts[filter] },
  );

/**
 * The status filter (with each status's count), the source filter (for a job of several sources) and
 * the title search of the videos table.
 */
export function VideoFilters({ job }: { job: JobView }) {
  const filter = useVideoPages((state) => state.filter);
  const search = useVideoPages((state) => state.search);
  const source = useVideoPages((state) => state.source);
  const [typed, setTyped] = useState(search);

  useEffect(() => {
    const timer = setTimeout(() => videoPagesStore.getState().setSearch(typed.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  return (
    <div className="video-filters">
      <fieldset className="segmented">
        <legend>Status</legend>
        {FILTERS.map((option) => (
          <label key={option.filter} className={filter === option.filter ? 'segment segment-on' : 'segment'}>
            <input
              type="radio"
              name="video-status"
              value={option.filter}
              checked={filter === option.filter}
              onChange={() => videoPagesStore.getState().setFilter(option.filter)}
            />
            {option.label} <span className="segment-count">{formatCount(option.count(job))}</span>
          </label>
        ))}
      </fieldset>
      {job.sources.length > 1 && (
        <div className="field source-field">
          <label htmlFor="video-source">Source</label>
          <select
            id="video-source"
            value={source ?? ''}
            onChange={(event) =>
              videoPagesStore
                .getState()
                .setSource(event.target.value === '' ? null : Number(event.target.value))
            }
          >
            <option value="">All sources</option>
            {job.sources.map((input, index) => (
              <option key={index} value={index}>
                {input}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="field search-field">
        <label htmlFor="video-search">Search titles</label>
        <input
          id="video-search"
          type="search"
          value={typed}
          autoComplete="off"
          onChange={(event) => setTyped(event.target.value)}
        />
      </div>
    </div>
  );
}
