import { useEffect } from 'react';
import { useRoute, type Route } from './routing';
import { JobDetailScreen } from './screens/detail/JobDetailScreen';
import { JobsScreen } from './screens/jobs/JobsScreen';
import { NewJobScreen } from './screens/new-job/NewJobScreen';
import { SettingsScreen } from './screens/settings/SettingsScreen';
import { CreditsAlert } from './shell/CreditsAlert';
import { CreditsBar } from './shell/CreditsBar';
import { Navigation } from './shell/Navigation';
import { useWindowDrop } from './shell/useWindowDrop';
import { startStores } from './stores';

const TITLES: Readonly<Record<Route['screen'], string>> = {
  jobs: 'Jobs',
  new: 'New job',
  settings: 'Settings',
  detail: 'Job',
};

/** The frame every screen shares: navigation, the credits bar, the credits alert, then the screen. */
export function App() {
  const route = useRoute();
  const dragging = useWindowDrop();

  useEffect(() => startStores(), []);
  useEffect(() => {
    document.title = `${TITLES[route.screen]} · Scriptorium`;
  }, [route.screen]);

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
    case 'settings':
      return <SettingsScreen />;
    case 'detail':
      return <JobDetailScreen key={route.jobId} jobId={route.jobId} />;
  }
}
