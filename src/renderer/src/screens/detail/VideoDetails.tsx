import { useEffect, useId, useRef } from 'react';
import { formatCorpusNumber } from '../../../../shared/corpus-number';
import type { VideoRow } from '../../../../shared/contract';
import { ExternalLink } from '../../components/ExternalLink';
import { placeInList, plural, videoStatusLabel } from '../../lib/format';
import { videoPageUrl } from '../../lib/links';
import { readerStore } from '../../stores';
import { videoReason } from './video-reason';

/** One video's whole story: status, attempts, and for a failure the HTTP status, code and message. */
export function VideoDetails({ row, onClose }: { row: VideoRow; onClose(): void }) {
  const titleId = useId();
  const panel = useRef<HTMLElement>(null);
  // Shown below the table: brought into view, the focus staying on the row.
  useEffect(() => {
    panel.current?.scrollIntoView({ block: 'nearest' });
  }, [row.itemId]);
  return (
    <section ref={panel} className="video-details" aria-labelledby={titleId} aria-live="polite">
      <h3 id={titleId}>{row.title || `Video ${row.videoId}`}</h3>
      <dl className="details-list">
        <div>
          <dt>Status</dt>
          <dd>
            {videoStatusLabel(row.status)}
            {row.attempts > 0 && `, after ${plural(row.attempts, 'attempt')}`}
          </dd>
        </div>
        {row.httpStatus !== null && (
          <div>
            <dt>HTTP status</dt>
            <dd>{row.httpStatus}</dd>
          </div>
        )}
        {row.code !== null && (
          <div>
            <dt>Code</dt>
            <dd>
              <code>{row.code}</code>
            </dd>
          </div>
        )}
        {(row.message !== null || videoReason(row) !== '') && (
          <div>
            <dt>Message</dt>
            <dd>{row.message ?? videoReason(row)}</dd>
          </div>
        )}
        <div>
          <dt>Video ID</dt>
          <dd>
            <code>{row.videoId}</code>
          </dd>
        </div>
        <div>
          <dt>Corpus number</dt>
          <dd>{formatCorpusNumber(row.number)}</dd>
        </div>
        <div>
          <dt>Position</dt>
          <dd>{placeInList(row.position, row.source)}</dd>
        </div>
        {row.language !== null && (
          <div>
            <dt>Language</dt>
            <dd>{row.language}</dd>
          </div>
        )}
      </dl>
      <p className="dialog-actions">
        {row.transcriptId !== null && (
          <button
            type="button"
            onClick={() => void readerStore.getState().show('job', row.transcriptId ?? 0, null, null)}
          >
            Read the transcript
          </button>
        )}
        <ExternalLink href={videoPageUrl(row.videoId)}>Open the video</ExternalLink>
        <button type="button" onClick={onClose}>
          Close details
        </button>
      </p>
    </section>
  );
}
