import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { ErrorMessage } from '../../components/ErrorMessage';
import { ExternalLink } from '../../components/ExternalLink';
import { matchText, snippetOf } from '../../../../shared/search-match';
import { parseSearchQuery, type SearchQuery } from '../../../../shared/search-query';
import { clockTime, videoUrlAt } from '../../../../shared/video-links';
import { formatCount, plural } from '../../lib/format';
import { readerStore, useReader } from '../../stores';
import type { ReaderPlace, Transcript } from '../../stores/reader';

/** A segment's height before it is measured: one line of text and its padding. */
const SEGMENT_ESTIMATE = 34;
/** Segments drawn beyond the visible ones, so that a scroll shows text rather than blanks. */
const OVERSCAN = 10;

/**
 * The whole transcript of one video, with times, the current hit scrolled into view and marked,
 * Previous hit and Next hit, and a link to the video at the current hit. Shown on the screen that
 * opened it (`place`) only. However long the transcript (three hours are thousands of segments),
 * only the segments on screen are drawn.
 */
export function TranscriptReader({ place }: { place: ReaderPlace }) {
  const open = useReader((state) => state.open);
  const transcript = useReader((state) => state.transcript);
  const error = useReader((state) => state.error);
  const section = useRef<HTMLElement>(null);
  const shown = open?.place === place ? transcript : null;
  // Opened below a table or a list: brought whole into view once read, the focus staying where the
  // user pressed, so that the hit it scrolls to is on screen.
  useEffect(() => {
    if (shown !== null) section.current?.scrollIntoView({ block: 'nearest' });
  }, [shown]);
  if (open === null || open.place !== place) return null;
  const title = transcript === null ? 'Transcript' : transcript.title || `Video ${transcript.videoId}`;
  return (
    <section ref={section} className="card reader" role="region" aria-label="Transcript">
      <div className="reader-header">
        <h2 className="clamp-2" title={title}>
          {title}
        </h2>
        <button type="button" onClick={() => readerStore.getState().close()}>
          Close transcript
        </button>
      </div>
      <ErrorMessage error={error} />
      {transcript === null ? (
        error === null && (
          <p className="muted" role="status">
            Reading the transcript…
          </p>
        )
      ) : (
        <ReaderBody transcript={transcript} query={open.query} />
      )}
    </section>
  );
}

function ReaderBody({ transcript, query }: { transcript: Transcript; query: string | null }) {
  const current = useReader((state) => state.current);
  const { hits, segments } = transcript;
  const position = hits.indexOf(current);
  const start = segments[current]?.start ?? null;
  const openAt = videoUrlAt(transcript.videoId, start);
  const before = hits.some((hit) => hit < current);
  const after = hits.some((hit) => hit > current);
  return (
    <>
      <p className="reader-facts muted">
        {[transcript.channelTitle, transcript.language, plural(segments.length, 'segment')]
          .filter((fact) => fact !== null && fact !== '')
          .join(' · ')}
      </p>
      <div className="reader-tools">
        {hits.length > 0 && (
          <>
            <button
              type="button"
              aria-disabled={!before || undefined}
              onClick={() => readerStore.getState().previousHit()}
            >
              Previous hit
            </button>
            <button
              type="button"
              aria-disabled={!after || undefined}
              onClick={() => readerStore.getState().nextHit()}
            >
              Next hit
            </button>
            <p className="reader-position" role="status">
              {position === -1
                ? plural(hits.length, 'hit')
                : `Hit ${formatCount(position + 1)} of ${formatCount(hits.length)}`}
            </p>
          </>
        )}
        {start === null ? (
          <ExternalLink href={transcript.url}>Open the video</ExternalLink>
        ) : (
          <ExternalLink href={openAt}>Open at {clockTime(start)}</ExternalLink>
        )}
      </div>
      <SegmentList transcript={transcript} query={query} current={current} />
    </>
  );
}

interface SegmentListProps {
  transcript: Transcript;
  query: string | null;
  current: number;
}

function SegmentList({ transcript, query, current }: SegmentListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  const { segments, hits } = transcript;
  const hitSet = useMemo(() => new Set(hits), [hits]);
  const parsed = useMemo(() => parsedQuery(query), [query]);
  const timed = segments.some((segment) => segment.start !== null);

  // The virtualizer keeps its own state outside React; the React Compiler must leave it alone.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: segments.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => SEGMENT_ESTIMATE,
    overscan: OVERSCAN,
  });

  // The current hit in the middle of the view, whenever it moves (and when the transcript opens).
  useEffect(() => {
    if (current < segments.length) virtualizer.scrollToIndex(current, { align: 'center' });
  }, [current, segments.length, virtualizer]);

  return (
    <div
      ref={scroller}
      className="reader-scroller"
      role="list"
      aria-label={`Segments of ${transcript.title || transcript.videoId}`}
      tabIndex={0}
    >
      <div role="presentation" className="reader-spacer" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const segment = segments[item.index];
          if (segment === undefined) return null;
          const isCurrent = item.index === current;
          const isHit = hitSet.has(item.index);
          return (
            <div
              key={item.key}
              role="listitem"
              data-index={item.index}
              ref={virtualizer.measureElement}
              aria-current={isCurrent || undefined}
              className={`reader-segment${isHit ? ' reader-segment-hit' : ''}${isCurrent ? ' reader-segment-current' : ''}`}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {timed && (
                <span className="reader-segment-time">
                  {segment.start === null ? '' : clockTime(segment.start)}
                </span>
              )}
              <span className="reader-segment-text">
                {isHit ? <MarkedText text={segment.text} query={parsed} /> : segment.text}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}

function parsedQuery(query: string | null): SearchQuery | null {
  if (query === null) return null;
  const parsed = parseSearchQuery(query);
  return parsed.ok ? parsed.query : null;
}

/** A hit's text with the words the query matched marked, as the search's snippets mark them. */
function MarkedText({ text, query }: { text: string; query: SearchQuery | null }) {
  const ranges = query === null ? null : matchText(query, text);
  if (ranges === null || ranges.length === 0) return <mark>{text}</mark>;
  return (
    <>
      {snippetOf(text, ranges).map((part, index) =>
        part.match ? <mark key={index}>{part.text}</mark> : part.text,
      )}
    </>
  );
}
