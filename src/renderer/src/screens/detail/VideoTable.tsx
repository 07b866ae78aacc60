import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { VideoRow } from '../../../../shared/contract';
import { formatCorpusNumber } from '../../../../shared/corpus-number';
import { ITEM_STATUS } from '../../../../shared/vocabulary';
import { ErrorMessage } from '../../components/ErrorMessage';
import { formatCount, placeInList, plural, videoStatusLabel } from '../../lib/format';
import { rowAt } from '../../lib/page-cache';
import { useVideoPages, videoPagesStore } from '../../stores';
import { PAGE_SIZE } from '../../stores/video-pages';
import { videoReason } from './video-reason';

const ROW_HEIGHT = 40;
/** Rows drawn beyond the visible ones, so that a scroll shows rows rather than blanks. */
const OVERSCAN = 12;
/** Rows a Page Up or Page Down moves. */
const PAGE_STEP = 10;

/**
 * Every video of the job, however many: only the rows on screen are drawn (react-virtual) and only
 * the pages around them are held (the video pages store). One row at a time is in the tab order;
 * arrows, Page Up/Down, Home and End move between rows, and Enter shows a row's details. Keyed by
 * the query, so that a new filter or search starts at the top.
 */
export function VideoTable({ onShow }: { onShow(row: VideoRow): void }) {
  const total = useVideoPages((state) => state.total);
  const pages = useVideoPages((state) => state.pages);
  const error = useVideoPages((state) => state.error);
  const filter = useVideoPages((state) => state.filter);
  const search = useVideoPages((state) => state.search);
  const source = useVideoPages((state) => state.source);
  const scroller = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const focusWanted = useRef<number | null>(null);
  const count = total ?? 0;

  // The virtualizer keeps its own state outside React; the React Compiler must leave it alone.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items.at(-1)?.index ?? -1;

  useEffect(() => {
    videoPagesStore.getState().showRows(first, last);
  }, [first, last, total]);

  // After a key moved the active row, focus it once it is drawn.
  useEffect(() => {
    const wanted = focusWanted.current;
    if (wanted === null) return;
    const element = scroller.current?.querySelector<HTMLElement>(`[data-index="${wanted}"]`);
    if (element) {
      focusWanted.current = null;
      element.focus({ preventScroll: true });
    }
  });

  const current = Math.min(active, Math.max(0, count - 1));
  const moveTo = (index: number) => {
    const target = Math.min(Math.max(0, index), count - 1);
    if (target < 0) return;
    setActive(target);
    focusWanted.current = target;
    virtualizer.scrollToIndex(target, { align: 'auto' });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      PageDown: current + PAGE_STEP,
      PageUp: current - PAGE_STEP,
      Home: 0,
      End: count - 1,
    };
    const target = moves[event.key];
    if (target !== undefined) {
      event.preventDefault();
      moveTo(target);
    } else if (event.key === 'Enter' || event.key === ' ') {
      const row = rowAt(pages, current, PAGE_SIZE);
      if (row !== undefined) {
        event.preventDefault();
        onShow(row);
      }
    }
  };

  return (
    <>
      <p id="videos-count" className="table-count" role="status">
        {total === null
          ? 'Reading the videos…'
          : describeCount(count, filter !== 'all' || source !== null, search)}
      </p>
      <ErrorMessage error={error} />
      <div
        className="video-table"
        role="table"
        aria-label="Videos"
        aria-rowcount={count + 1}
        aria-describedby="videos-count videos-keys"
      >
        <TableHead />
        <div role="rowgroup" className="vt-body" ref={scroller} onKeyDown={onKeyDown}>
          <div role="presentation" className="vt-spacer" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => (
              <TableRow
                key={item.key}
                index={item.index}
                top={item.start}
                row={rowAt(pages, item.index, PAGE_SIZE)}
                active={item.index === current}
                onActivate={setActive}
                onShow={onShow}
              />
            ))}
          </div>
        </div>
      </div>
      <p id="videos-keys" className="help">
        Up and down arrows move between videos; Enter shows a video’s status, code and message.
      </p>
    </>
  );
}

/** The column names, the table's first row. */
function TableHead() {
  return (
    <div role="rowgroup" className="vt-head">
      <div role="row" aria-rowindex={1} className="vt-row">
        <span role="columnheader" title="The corpus number: the one the video’s files in the ZIP start with">
          #
        </span>
        <span role="columnheader">Title</span>
        <span role="columnheader">Source</span>
        <span role="columnheader">Language</span>
        <span role="columnheader">Status</span>
        <span role="columnheader">Reason</span>
      </div>
    </div>
  );
}

function describeCount(count: number, filtered: boolean, search: string): string {
  if (!filtered && search === '')
    return count === 0
      ? 'No videos yet: they are listed once the job’s lists are read.'
      : plural(count, 'video');
  if (count === 0)
    return search === '' ? 'No video matches these filters.' : 'No video title matches this search.';
  return `${formatCount(count)} matching ${count === 1 ? 'video' : 'videos'}`;
}

interface TableRowProps {
  index: number;
  top: number;
  row: VideoRow | undefined;
  active: boolean;
  onActivate(index: number): void;
  onShow(row: VideoRow): void;
}

const TableRow = memo(function TableRow({ index, top, row, active, onActivate, onShow }: TableRowProps) {
  const reason = row === undefined ? '' : videoReason(row);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      data-index={index}
      tabIndex={active ? 0 : -1}
      className={`vt-row vt-item${row?.status === ITEM_STATUS.failed ? ' vt-failed' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      onFocus={() => onActivate(index)}
      onClick={() => {
        onActivate(index);
        if (row !== undefined) onShow(row);
      }}
    >
      {row === undefined ? (
        <>
          <span role="cell" className="muted">
            …
          </span>
          <span role="cell" className="muted">
            Loading
          </span>
          <span role="cell" />
          <span role="cell" />
          <span role="cell" />
          <span role="cell" />
        </>
      ) : (
        <>
          <span role="cell" className="vt-number">
            {formatCorpusNumber(row.number)}
          </span>
          <span role="cell" className="vt-title" title={row.title || row.videoId}>
            {row.title || <span className="muted">{row.videoId}</span>}
          </span>
          <span role="cell" className="vt-source" title={placeInList(row.position, row.source)}>
            {row.source}
          </span>
          <span role="cell">{row.language ?? ''}</span>
          <span role="cell">
            <span className={`badge badge-video-${row.status}`}>{videoStatusLabel(row.status)}</span>
          </span>
          <span role="cell" className="vt-reason" title={reason}>
            {reason}
          </span>
        </>
      )}
    </div>
  );
});
