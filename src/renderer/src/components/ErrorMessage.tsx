import type { ShownError } from '../lib/errors';
import { routeHref } from '../routing';

/** A failed command, said plainly, with the way to Settings when the fix is there. */
export function ErrorMessage({ error }: { error: ShownError | string | null }) {
  if (error === null) return null;
  const shown = typeof error === 'string' ? { message: error, fixInSettings: false } : error;
  return (
    <p className="message message-error" role="alert">
      {shown.message}
      {shown.fixInSettings && (
        <>
          {' '}
          <a href={routeHref.settings}>Open Settings</a>
        </>
      )}
    </p>
  );
}
