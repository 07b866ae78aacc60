import { useCallback, useId, useState } from 'react';
import {
  EXPORT_FORMATS,
  type CommandInput,
  type ExportFormat,
  type JobView,
} from '../../../../shared/contract';
import { JOB_STATUS } from '../../../../shared/vocabulary';
import { CitationFieldset } from '../../components/CitationFieldset';
import { Dialog } from '../../components/Dialog';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Choice } from '../../components/FormFields';
import { FORMAT_NAMES } from '../../components/OptionFields';
import { ProgressBar } from '../../components/ProgressBar';
import { citationFieldsOf, readCitationFields, type CitationProblems } from '../../lib/citation-fields';
import { describeError } from '../../lib/errors';
import { suggestedZipName } from '../../lib/export-names';
import { desktop } from '../../transport';
import { formatBytes, formatCount } from '../../lib/format';
import { exportsStore, useExports, useSettings } from '../../stores';
import { useReleasedVersions, VersionField } from './VersionField';
import type { ExportState } from '../../stores/exports';

/**
 * Writes the job's ZIP: the formats first, then the desktop's save dialog or, in a browser, a
 * download. The dialog can be closed while the ZIP is written; the export goes on.
 */
export function ExportDialog({ job, onClose }: { job: JobView; onClose(): void }) {
  const titleId = useId();
  const [formats, setFormats] = useState<ExportFormat[]>(job.formats);
  const corpusDefaults = useSettings((settings) => settings.settings?.corpus ?? null);
  const [citation, setCitation] = useState(() => citationFieldsOf(job.citation, corpusDefaults));
  const [citationProblems, setCitationProblems] = useState<CitationProblems>({});
  const [problem, setProblem] = useState<string | null>(null);
  const state = useExports((exports) => exports.byJob[job.id]);
  const versions = useReleasedVersions(job.id);
  const [version, setVersion] = useState<number | null>(null);
  const os = desktop();

  const close = () => {
    if (state?.phase !== 'writing') exportsStore.getState().forget(job.id);
    onClose();
  };
  const start = async () => {
    if (version !== null) {
      await save({ formats: job.formats, destination: null, version }, citation.title);
      return;
    }
    if (formats.length === 0) {
      setProblem('Choose at least one file format.');
      return;
    }
    const checked = readCitationFields(citation);
    if (!checked.ok) {
      setCitationProblems(checked.problems);
      setProblem('The corpus’s citation is not valid: see the fields marked above.');
      return;
    }
    setCitationProblems({});
    await save({ formats, destination: null, citation: checked.value }, citation.title);
  };
  /** Asks where to save (in the desktop app), then writes the ZIP; `title` names the file suggested. */
  const save = async (request: Omit<CommandInput<'exportJob'>, 'jobId'>, title: string) => {
    setProblem(null);
    let destination: string | null = null;
    if (os !== undefined) {
      try {
        destination = await os.chooseExportPath(suggestedZipName(job, title));
      } catch (error) {
        setProblem(describeError(error).message);
        return;
      }
      if (destination === null) return;
    }
    await exportsStore.getState().start(job.id, { ...request, destination });
  };

  return (
    <Dialog labelledBy={titleId} onClose={close}>
      <h2 id={titleId} className="clamp-2" title={job.title}>
        Export “{job.title}”
      </h2>
      {state === undefined || state.phase === 'failed' ? (
        <>
          <VersionField id={`${titleId}-version`} versions={versions} value={version} onChange={setVersion} />
          {version === null && (
            <>
              <fieldset className="choices">
                <legend>Files in the ZIP</legend>
                {EXPORT_FORMATS.map((format) => (
                  <Choice
                    key={format}
                    id={`${titleId}-${format}`}
                    label={FORMAT_NAMES[format].label}
                    help={FORMAT_NAMES[format].help}
                    checked={formats.includes(format)}
                    onChange={(on) =>
                      setFormats((chosen) =>
                        on ? [...chosen, format] : chosen.filter((other) => other !== format),
                      )
                    }
                  />
                ))}
              </fieldset>
              <CitationFieldset
                idPrefix={`${titleId}-citation`}
                fields={citation}
                problems={citationProblems}
                onChange={(change) => setCitation((current) => ({ ...current, ...change }))}
              />
            </>
          )}
          <p className="help">
            Every ZIP also holds index.csv, errors.csv, transcripts.jsonl, manifest.json, a datasheet
            (README.md), CITATION.cff, datapackage.json and SHA256SUMS.
            {job.status !== JOB_STATUS.completed &&
              ' The job has not finished: the ZIP will hold what is fetched so far, and its manifest will say it is incomplete.'}
          </p>
          <ErrorMessage error={problem ?? (state?.phase === 'failed' ? state.error : null)} />
          <div className="dialog-actions">
            <button type="button" onClick={close}>
              Close
            </button>
            <button type="button" className="button-primary" onClick={() => void start()}>
              {os === undefined ? 'Export ZIP' : 'Choose where to save…'}
            </button>
          </div>
        </>
      ) : (
        <ExportOutcome state={state} onClose={close} />
      )}
    </Dialog>
  );
}

function ExportOutcome({
  state,
  onClose,
}: {
  state: Exclude<ExportState, { phase: 'failed' }>;
  onClose(): void;
}) {
  const os = desktop();
  // The button pressed to get here is gone: the focus goes to the next step, never out of the dialog.
  const focusWhenShown = useCallback((element: HTMLElement | null) => element?.focus(), []);
  if (state.phase === 'writing') {
    return (
      <>
        <ProgressBar
          label="Writing the ZIP"
          value={state.done}
          max={state.total}
          valueText={
            state.total === 0
              ? 'Starting'
              : `${formatCount(state.done)} of ${formatCount(state.total)} videos written`
          }
        />
        <p role="status">
          {state.total === 0
            ? 'Writing the ZIP…'
            : `Writing the ZIP: ${formatCount(state.done)} of ${formatCount(state.total)} videos.`}
        </p>
        <div className="dialog-actions">
          <button type="button" ref={focusWhenShown} onClick={onClose}>
            Close
          </button>
        </div>
      </>
    );
  }
  const { result } = state;
  return (
    <>
      <p role="status">
        {result.path === null
          ? `The ZIP is ready (${formatBytes(result.bytes)}).`
          : `Saved ${result.fileName} (${formatBytes(result.bytes)}).`}
        {!result.jobFinished && ' It is incomplete, since the job has not finished; its manifest says so.'}
        {result.copied > 0 &&
          ` ${result.copied.toLocaleString('en')} files were copied unchanged from the previous export, ${result.written.toLocaleString('en')} written.`}
      </p>
      {result.citationChanges.length > 0 && (
        <div>
          <p>The corpus now carries:</p>
          <ul aria-label="Citation changes">
            {result.citationChanges.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        </div>
      )}
      {result.path !== null && <p className="path">{result.path}</p>}
      {/* The next step first: the download (or the folder), then Close, which never sits above it. */}
      <div className="dialog-actions">
        {result.path === null ? (
          <a
            ref={focusWhenShown}
            className="button button-primary download-link"
            href={`api/download/${result.exportId}`}
            download={result.fileName}
          >
            Download {result.fileName}
          </a>
        ) : (
          os !== undefined && (
            <button
              ref={focusWhenShown}
              type="button"
              className="button-primary"
              onClick={() => void os.showInFolder(result.path ?? '')}
            >
              Show in folder
            </button>
          )
        )}
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </>
  );
}
