import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

/** Whether the user has moved between screens since the page loaded. */
let navigated = false;
window.addEventListener('hashchange', () => {
  navigated = true;
});

/**
 * A screen's title. After a move between screens it takes the focus, so that keyboard and screen
 * reader users start at the top of the new screen rather than on a link that is gone. A heading
 * that names a job or a video (`clampTitle`, its whole text) takes two lines at most and shows the
 * whole of it as a tooltip.
 */
export function ScreenHeading({
  children,
  clampTitle,
  headingRef,
}: {
  children: ReactNode;
  clampTitle?: string;
  /** For a screen that measures its heading (whether the clamp hides part of the title). */
  headingRef?: RefObject<HTMLHeadingElement | null>;
}) {
  const own = useRef<HTMLHeadingElement>(null);
  const ref = headingRef ?? own;
  useEffect(() => {
    if (navigated) ref.current?.focus();
  }, [ref]);
  return (
    <h1
      ref={ref}
      tabIndex={-1}
      className={clampTitle === undefined ? 'screen-title' : 'screen-title clamp-2'}
      title={clampTitle}
    >
      {children}
    </h1>
  );
}
