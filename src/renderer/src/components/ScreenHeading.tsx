import { useEffect, useRef, type ReactNode } from 'react';

/** Whether the user has moved between screens since the page loaded. */
let navigated = false;
window.addEventListener('hashchange', () => {
  navigated = true;
});

/**
 * A screen's title. After a move between screens it takes the focus, so that keyboard and screen
 * reader users start at the top of the new screen rather than on a link that is gone.
 */
export function ScreenHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (navigated) ref.current?.focus();
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1} className="screen-title">
      {children}
    </h1>
  );
}
