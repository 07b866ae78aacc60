import type { ReactNode } from 'react';
import { safeHttpsUrl } from '../lib/links';
import { desktop } from '../transport';

/**
 * A link that leaves the app: https only. The desktop app opens it in the user's browser; browser
 * mode opens a new tab that cannot reach back into this one.
 */
export function ExternalLink({ href, children }: { href: string | null; children: ReactNode }) {
  const url = safeHttpsUrl(href);
  if (url === null) return null;
  const os = desktop();
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      onClick={
        os === undefined
          ? undefined
          : (event) => {
              event.preventDefault();
              // Reviewed: a request to the main process, which opens https links only (openInBrowser).
              void os.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK
            }
      }
    >
      {children}
      <span className="visually-hidden"> (opens in your browser)</span>
    </a>
  );
}
