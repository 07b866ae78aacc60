import { useEffect } from 'react';
import { useRoute, type Route } from './routing';
import { JobDetailScreen } from './screens/detail/JobDetailScreen';
import { JobsScreen } from './screens/jobs/JobsScreen';
import { LibraryScreen } from './screens/library/LibraryScreen';
import { NewJobScreen } from './screens/new-job/NewJobScreen';
import { SettingsScreen } from './screens/settings/SettingsScreen';
import { CreditsAlert } from './shell/CreditsAlert';
import { CreditsBar } from './shell/CreditsBar';
import { Navigation } from './shell/Navigation';
import { useWindowDrop } from './shell/useWindowDrop';
import { JOB_STATUS } from '../../shared/vocabulary';
import { videosDone } from './lib/job-state';
import { startStores, useJobs } from './stores';
import type { JobsState } from './stores/jobs';

const TITLES: Readonly<Record<Route['screen'], string>> = {
  jobs: 'Jobs',
  new: 'New job',
  library: 'Library',
  settings: 'Settings',
  detail: 'Job',
};

/** The whole percentage done of the newest running job, or null when none runs. */
function runningProgress(state: JobsState): number | null {
  const job = state.order
    .map((id) => state.byId[id])
    .find((candidate) => candidate?.status === JOB_STATUS.running);
  if (job === undefined || job.counts.total === 0) return null;
  return Math.floor((videosDone(job) / job.counts.total) * 100);
}

/** The frame every screen shares: navigation, the credits bar, the credits alert, then the screen. */
export function App() {
  const route = useRoute();
  const dragging = useWindowDrop();

  const running = useJobs(runningProgress);

  useEffect(() => startStores(), []);
  useEffect(() => {
    // A running job's progress shows in the tab or the taskbar, whichever screen is open.
    const progress = running === null ? '' : `${running} % · `;
    document.title = `${progress}${TITLES[route.screen]} · Scriptorium`;
  }, [route.screen, running]);

  return (
    <div className="app">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to the screen
      </a>
      <header className="app-header">
        <span className="brand">Scriptorium</span>
        <Navigation route={route} />
      </header>
      <CreditsBar />
      <main id="main" className="main" tabIndex={-1}>
        <div className="screen">
          <CreditsAlert />
          <Screen route={route} />
        </div>
      </main>
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          <p>Drop to add to the sources of a new job</p>
        </div>
      )}
    </div>
  );
}

function Screen({ route }: { route: Route }) {
  switch (route.screen) {
    case 'jobs':
      return <JobsScreen />;
    case 'new':
      return <NewJobScreen />;
    case 'library':
      return <LibraryScreen view={route.view} />;
    case 'settings':
      return <SettingsScreen />;
    case 'detail':
      return <JobDetailScreen key={route.jobId} jobId={route.jobId} />;
  }
}
