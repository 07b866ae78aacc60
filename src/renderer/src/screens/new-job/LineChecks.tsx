import { useState } from 'react';
import type { SourceLine } from '../../../../shared/contract';
import { SOURCE_KIND } from '../../../../shared/vocabulary';
import { plural, sourceKindLabel } from '../../lib/format';
import { newJobStore, useNewJob } from '../../stores';

/** More lines than this are summed up rather than all listed; lines with a problem are always listed. */
const MAX_LISTED = 300;

/** How each line of the paste box reads: its kind, or why it is not a source, and any warning. */
export function LineChecks() {
  const lines = useNewJob((state) => state.lines);
  const checking = useNewJob((state) => state.checking);
  const checkError = useNewJob((state) => state.checkError);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const problems = lines.filter((line) => line.kind === null || line.warning !== null);
  const invalid = lines.filter((line) => line.kind === null).length;
  const listed =
    onlyProblems && problems.length > 0
      ? problems
      : lines.length <= MAX_LISTED
        ? lines
        : [...problems, ...lines.filter((line) => line.kind !== null && line.warning === null)].slice(
            0,
            Math.max(MAX_LISTED, problems.length),
          );

  return (
    <div className="line-checks">
      <p id="sources-summary" className="line-summary" role="status">
        {checkError ?? (checking && lines.length === 0 ? 'Checking the lines…' : summarize(lines))}
      </p>
      {problems.length > 0 && (
        <div className="line-tools">
          <label className="choice-inline">
            <input
              type="checkbox"
              checked={onlyProblems}
              onChange={(event) => setOnlyProblems(event.target.checked)}
            />
            Show only problems
          </label>
          {invalid > 0 && (
            <button type="button" onClick={() => newJobStore.getState().removeInvalidLines()}>
              Remove invalid lines
            </button>
          )}
        </div>
      )}
      {listed.length > 0 && (
        <div className="line-table-wrap" tabIndex={0} aria-label="How each line reads" role="region">
          <table className="line-table">
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Source</th>
                <th scope="col">Reads as</th>
              </tr>
            </thead>
            <tbody>
              {listed.map((line) => (
                <LineRow key={line.where} line={line} />
              ))}
            </tbody>
          </table>
          {listed.length < lines.length && (
            <p className="help">
              {plural(
                lines.length - listed.length,
                onlyProblems ? 'line without a problem' : 'more valid line',
              )}{' '}
              not listed here.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

function LineRow({ line }: { line: SourceLine }) {
  const number = line.where.replace(/^line /, '');
  return (
    <tr className={line.kind === null ? 'line-invalid' : line.warning !== null ? 'line-warning' : undefined}>
      <td>{number}</td>
      <td className="line-input">{line.input}</td>
      <td>
        {line.kind === null ? (
          <>
            <strong>Not a source:</strong> {line.reason}
          </>
        ) : (
          <>
            {sourceKindLabel(line.kind)}
            {line.warning !== null && (
              <span className="line-warning-text">
                <strong>Check:</strong> {line.warning}
              </span>
            )}
          </>
        )}
      </td>
    </tr>
  );
}

/** "5 sources: 2 playlists, 1 channel, 1 search and 1 video. 1 line is not a source." */
function summarize(lines: readonly SourceLine[]): string {
  if (lines.length === 0) return 'No sources yet.';
  const counts = new Map<string, number>();
  for (const line of lines) if (line.kind !== null) counts.set(line.kind, (counts.get(line.kind) ?? 0) + 1);
  const valid = lines.length - lines.filter((line) => line.kind === null).length;
  const kinds = ([SOURCE_KIND.playlist, SOURCE_KIND.channel, SOURCE_KIND.search, SOURCE_KIND.video] as const)
    .filter((kind) => counts.has(kind))
    .map((kind) =>
      plural(counts.get(kind) ?? 0, kind, kind === SOURCE_KIND.search ? 'searches' : `${kind}s`),
    );
  const invalid = lines.length - valid;
  const warned = lines.filter((line) => line.warning !== null).length;
  return [
    valid === 0 ? 'No valid source.' : `${plural(valid, 'source')}: ${joinAnd(kinds)}.`,
    invalid > 0
      ? `${invalid === 1 ? '1 line is' : `${invalid} lines are`} not a source and will be left out.`
      : '',
    warned > 0 ? `${warned === 1 ? '1 line needs' : `${warned} lines need`} a check.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

function joinAnd(parts: string[]): string {
  if (parts.length <= 1) return parts.join('');
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}
