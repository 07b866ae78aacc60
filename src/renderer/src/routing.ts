import { useSyncExternalStore } from 'react';

/** The screens, addressed by the URL's hash so that a reload keeps the screen (#/jobs/12). */
export type Route =
  | { screen: 'jobs' }
  | { screen: 'new' }
  | { screen: 'library'; view: LibraryView }
  | { screen: 'settings' }
  | { screen: 'detail'; jobId: number };

/** The Library's views: the search's hits by video, every hit in its context, and counts over time. */
export type LibraryView = 'search' | 'concordance' | 'trends';

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  if (path === '/new') return { screen: 'new' };
  if (path === '/library') return { screen: 'library', view: 'search' };
  if (path === '/library/concordance') return { screen: 'library', view: 'concordance' };
  if (path === '/library/trends') return { screen: 'library', view: 'trends' };
  if (path === '/settings') return { screen: 'settings' };
  const detail = /^\/jobs\/(\d{1,9})$/.exec(path);
  if (detail) return { screen: 'detail', jobId: Number(detail[1]) };
  return { screen: 'jobs' };
}

export const routeHref = {
  jobs: '#/jobs',
  newJob: '#/new',
  library: '#/library',
  concordance: '#/library/concordance',
  trends: '#/library/trends',
  settings: '#/settings',
  job: (jobId: number) => `#/jobs/${jobId}`,
} as const;

export function navigate(href: string): void {
  window.location.hash = href;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

const currentHash = (): string => window.location.hash;

/** The route in the address bar, following it as it changes. */
export function useRoute(): Route {
  return parseRoute(useSyncExternalStore(subscribe, currentHash));
}
