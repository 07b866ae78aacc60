import { useEffect } from 'react';
import { useAppStore } from './store';
import { connect } from './transport';

const api = connect();

export function App() {
  const { jobs, credits, snapshots, error, refresh, applySnapshot } = useAppStore();

  useEffect(() => {
    void refresh(api);
    return api.on('jobChanged', applySnapshot);
  }, [refresh, applySnapshot]);

  return (
    <main>
      <h1>Scriptorium</h1>
      {error && <p role="alert">{error}</p>}
      {credits && (
        <p>
          Credits spent today: {credits.today} · in total: {credits.total}
          {credits.estimatedRemaining !== null && <> · about {credits.estimatedRemaining} left</>}
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th>Job</th>
            <th>Status</th>
            <th>Sources</th>
            <th>Done</th>
            <th>Credits</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => {
            const counts = snapshots[job.id]?.counts ?? job.counts;
            return (
              <tr key={job.id}>
                <td>{job.id}</td>
                <td>{snapshots[job.id]?.status ?? job.status}</td>
                <td>{job.sources.join(', ')}</td>
                <td>
                  {counts.ok + counts.unavailable + counts.failed} / {counts.total}
                </td>
                <td>{job.creditsSpent}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {jobs.length === 0 && <p>No jobs yet. Start one with `scriptorium export`.</p>}
    </main>
  );
}
