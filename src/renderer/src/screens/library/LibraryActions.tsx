import { useState } from 'react';
import type { CommandOutput, ConcordanceOptions } from '../../../../shared/contract';
import { ErrorMessage } from '../../components/ErrorMessage';
import { describeError } from '../../lib/errors';
import { formatBytes, formatCount, plural } from '../../lib/format';
import { navigate, routeHref } from '../../routing';
import { libraryStore, useLibrary } from '../../stores';
import { desktop } from '../../transport';

/** The name the save dialog suggests for the hits: "scriptorium-search-river-light.csv". */
export function suggestedCsvName(query: string, kind = 'search'): string {
  const words = query
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `scriptorium-${kind}${words ? `-${words}` : ''}.csv`;
}

/**
 * What to do with the search shown: Export results (its hits as CSV: the desktop's save dialog, or a
 * download in a browser) and Export these videos (a job of their transcripts, already paid for,
 * which the user is then taken to, and exports like any job). In the concordance view (`concordance`
 * given), Export hits writes the hits with the words around them, in the order shown.
 */
export function LibraryActions({ concordance }: { concordance: ConcordanceOptions | null }) {
  const answer = useLibrary((state) => state.answer);
  const searching = useLibrary((state) => state.searching);
  const resultsExport = useLibrary((state) => state.resultsExport);
  const videosJob = useLibrary((state) => state.videosJob);
  const [problem, setProblem] = useState<string | null>(null);
  if (answer === null || answer.result.hits === 0 || searching) return null;
  const os = desktop();

  const exportResults = async () => {
    setProblem(null);
    let destination: string | null = null;
    if (os !== undefined) {
      try {
        destination = await os.chooseExportPath(
          suggestedCsvName(answer.request.query, concordance === null ? 'search' : 'concordance'),
        );
      } catch (error) {
        setProblem(describeError(error).message);
        return;
      }
      if (destination === null) return;
    }
    await libraryStore.getState().exportResults(destination, concordance);
  };
  const exportVideos = async () => {
    setProblem(null);
    const jobId = await libraryStore.getState().makeJob();
    // Videos left out are said here first; the user opens the job from the message.
    const made = libraryStore.getState().videosJob;
    if (jobId !== null && made?.phase === 'done' && made.result.leftOut === 0) navigate(routeHref.job(jobId));
  };

  return (
    <div className="library-actions">
      <div className="button-row">
        <button
          type="button"
          aria-disabled={resultsExport?.phase === 'writing' || undefined}
          onClick={() => void exportResults()}
        >
          {concordance === null ? 'Export results' : 'Export hits'}
        </button>
        {concordance === null && (
          <button
            type="button"
            aria-disabled={videosJob?.phase === 'making' || undefined}
            onClick={() => void exportVideos()}
          >
            Export these videos
          </button>
        )}
      </div>
      {concordance === null ? (
        <p className="help">
          Export results writes every hit as a CSV table (video, transcript, language, title, time, link,
          text). Export these videos makes a job of the {plural(answer.result.videos, 'video')} found, from
          the transcripts already on this computer: running and exporting it spends no credit.
        </p>
      ) : (
        <p className="help">
          Export hits writes every hit as a CSV table in the order shown: the words to its left, the match,
          the words to its right, with the video, its channel, its date, the time and the link.
        </p>
      )}
      <ErrorMessage error={problem} />
      {resultsExport?.phase === 'writing' && (
        <div className="library-export-writing">
          <p role="status">
            {resultsExport.progress === null
              ? 'Writing the CSV…'
              : `Writing the CSV: ${formatCount(resultsExport.progress.done)} of ${plural(resultsExport.progress.total, 'hit')}…`}
          </p>
          {/* Offered once the app has named the export, which is how it is cancelled. */}
          {resultsExport.progress !== null && (
            <button
              type="button"
              aria-disabled={resultsExport.cancelling || undefined}
              onClick={() => void libraryStore.getState().cancelExport()}
            >
              Cancel export
            </button>
          )}
        </div>
      )}
      {resultsExport?.phase === 'cancelled' && (
        <p role="status">Export results was cancelled: no file was written.</p>
      )}
      {resultsExport?.phase === 'failed' && <ErrorMessage error={resultsExport.error} />}
      {resultsExport?.phase === 'done' && <ExportDone result={resultsExport.result} />}
      {videosJob?.phase === 'making' && <p role="status">Making the job…</p>}
      {videosJob?.phase === 'failed' && <ErrorMessage error={videosJob.error} />}
      {videosJob?.phase === 'done' && videosJob.result.leftOut > 0 && <LeftOut result={videosJob.result} />}
    </div>
  );
}

function ExportDone({ result }: { result: CommandOutput<'exportSearchResults'> }) {
  const os = desktop();
  return (
    <div className="message message-success">
      <p role="status">
        {result.path === null
          ? `The CSV of ${plural(result.hits, 'hit')} is ready (${formatBytes(result.bytes)}).`
          : `Saved ${result.fileName}: ${plural(result.hits, 'hit')} (${formatBytes(result.bytes)}).`}
      </p>
      {result.path === null ? (
        <a className="button" href={`api/download/${result.exportId}`} download={result.fileName}>
          Download {result.fileName}
        </a>
      ) : (
        os !== undefined && (
          <button type="button" onClick={() => void os.showInFolder(result.path ?? '')}>
            Show in folder
          </button>
        )
      )}
    </div>
  );
}

/**
 * A job asks every video one way (language, times, metadata): the matching videos whose transcripts
 * were bought another way are not in it, and the user is told before opening it.
 */
function LeftOut({ result }: { result: CommandOutput<'createJobFromSearch'> }) {
  return (
    <div className="message">
      <p role="status">
        Made a job of {plural(result.videos, 'video')}. {plural(result.leftOut, 'matching video')}{' '}
        {result.leftOut === 1 ? 'was' : 'were'} left out:{' '}
        {result.leftOut === 1 ? 'its transcript was' : 'their transcripts were'} bought another way (another
        language, or with or without times or metadata), and a job asks every video the same way.
      </p>
      <a className="button" href={routeHref.job(result.job.id)}>
        Open the job
      </a>
    </div>
  );
}
