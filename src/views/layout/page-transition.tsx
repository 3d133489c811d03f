import { Suspense, useEffect, useState, type ReactNode } from 'react';

/**
 * Out-in page transition (SPEC §1): the old page fades out completely before the new one fades in.
 * `render` gets the location being shown, which lags behind the real one while the old page leaves
 * (a wouter `<Switch location>` keeps rendering the old screen). The swap happens on the out
 * animation's end, so there are no timers.
 *
 * Each navigation is a visit with its own number, and the page is keyed by it, not by its path: coming
 * back to the leaving page's address before its fade-out ends (Back from compose, "Descartar", Redactar at
 * once) mounts a new page instead of keeping the leaving one, whose actor has already finished.
 *
 * A screen whose code is still coming shows `pending` in the page area only: the header and the sidebar
 * stay. Once a visit's screen is there, the keyboard focus goes to its heading (not on the first visit:
 * the browser's own start stays).
 */
export function PageTransition({
  location,
  render,
  pending = null,
}: {
  location: string;
  render: (shown: string) => ReactNode;
  pending?: ReactNode;
}) {
  const [visits, setVisits] = useState({ shown: location, shownVisit: 0, latest: location, latestVisit: 0 });
  let current = visits;
  if (location !== visits.latest) {
    // A new navigation, noticed while rendering (React's pattern for state that follows a prop).
    current = { ...visits, latest: location, latestVisit: visits.latestVisit + 1 };
    setVisits(current);
  }
  const leaving = current.shownVisit !== current.latestVisit;
  return (
    <div
      key={current.shownVisit}
      data-slot="page"
      className={leaving ? 'animate-page-out' : 'animate-page-in'}
      onAnimationEnd={leaving ? () => setVisits((v) => ({ ...v, shown: v.latest, shownVisit: v.latestVisit })) : undefined}
    >
      <Suspense fallback={pending}>
        {current.shownVisit > 0 && <FocusHeading />}
        {render(current.shown)}
      </Suspense>
    </div>
  );
}

/** How long after a visit's screen is there a heading that replaces the focused one takes the focus again. */
const SETTLING_MS = 2000;

/** The page's heading, or failing that the page area (`#main`, focusable by script). */
const headingOf = (main: HTMLElement): HTMLElement | null => main.querySelector<HTMLElement>('h1');

/**
 * Moves the keyboard focus to the new screen's heading once it is on screen (inside the Suspense, so after
 * its code came). A screen that swaps its loading frame for the loaded one replaces the heading element: for
 * a short while, a focus left on the page area or dropped on the body follows it to the new heading. Any
 * key or press of the user's ends that.
 */
function FocusHeading() {
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return;
    const place = () => {
      const heading = headingOf(main);
      const target = heading ?? main;
      if (document.activeElement === target) return;
      if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      target.focus({ preventScroll: true });
    };
    place();
    const lost = () => document.activeElement === document.body || document.activeElement === main;
    const observer = new MutationObserver(() => {
      if (lost()) place();
    });
    observer.observe(main, { childList: true, subtree: true });
    const stop = () => observer.disconnect();
    const timer = setTimeout(stop, SETTLING_MS);
    addEventListener('keydown', stop, { capture: true, once: true });
    addEventListener('pointerdown', stop, { capture: true, once: true });
    return () => {
      stop();
      clearTimeout(timer);
      removeEventListener('keydown', stop, { capture: true });
      removeEventListener('pointerdown', stop, { capture: true });
    };
  }, []);
  return null;
}
