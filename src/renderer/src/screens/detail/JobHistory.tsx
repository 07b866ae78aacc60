import type { JobDetail } from '../../../../shared/contract';
import { capitalize, formatCount, formatWhen } from '../../lib/format';

/** The job's filters in words, on one line; nothing when it takes every video. */
export function SelectionLine({ filters }: { filters: readonly string[] }) {
  if (filters.length === 0) return null;
  return (
    <p className="selection-line">
      <strong>Selection:</strong> {capitalize(filters.join('; '))}.
    </p>
  );
}

/** Each time the job was brought up to date: when, what it found and what it cost. */
export function SyncsTable({ syncs }: { syncs: JobDetail['syncs'] }) {
  if (syncs.length === 0) return null;
  return (
    <section className="card" aria-labelledby="syncs-heading">
      <h2 id="syncs-heading">Syncs</h2>
      <table className="data-table" aria-labelledby="syncs-heading">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">New videos</th>
            <th scope="col">Credits</th>
          </tr>
        </thead>
        <tbody>
          {syncs.map((sync, index) => (
            <tr key={`${index}:${sync.at}`}>
              <td>{formatWhen(sync.at)}</td>
              <td>{formatCount(sync.newVideos)}</td>
              <td>{formatCount(sync.credits)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
