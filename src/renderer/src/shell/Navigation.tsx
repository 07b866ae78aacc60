import { routeHref, type Route } from '../routing';

const LINKS = [
  {
    href: routeHref.jobs,
    label: 'Jobs',
    current: (route: Route) => route.screen === 'jobs' || route.screen === 'detail',
  },
  { href: routeHref.newJob, label: 'New job', current: (route: Route) => route.screen === 'new' },
  { href: routeHref.library, label: 'Library', current: (route: Route) => route.screen === 'library' },
  { href: routeHref.settings, label: 'Settings', current: (route: Route) => route.screen === 'settings' },
];

export function Navigation({ route }: { route: Route }) {
  return (
    <nav className="nav" aria-label="Main">
      <ul>
        {LINKS.map((link) => (
          <li key={link.href}>
            <a href={link.href} aria-current={link.current(route) ? 'page' : undefined}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
