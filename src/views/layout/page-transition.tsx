import { useState, type ReactNode } from 'react';

/**
 * Out-in page transition (SPEC §1): the old page fades out completely before the new one fades in.
 * `render` gets the location being shown, which lags behind the real one while the old page leaves
 * (a wouter `<Switch location>` keeps rendering the old screen). The swap happens on the out
 * animation's end, so there are no timers.
 *
 * Each navigation is a visit with its own number, and the page is keyed by it, not by its path: coming
 * back to the leaving page's address before its fade-out ends (Back from compose, "Descartar", Redactar at
 * once) mounts a new page instead of keeping the leaving one, whose actor has already finished.
 */
export function PageTransition({ location, render }: { location: string; render: (shown: string) => ReactNode }) {
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
      {render(current.shown)}
    </div>
  );
}
