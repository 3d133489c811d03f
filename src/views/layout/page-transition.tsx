import { useState, type ReactNode } from 'react';

/**
 * Out-in page transition (SPEC §1): the old page fades out completely before the new one fades in.
 * `render` gets the location being shown, which lags behind the real one while the old page leaves
 * (a wouter `<Switch location>` keeps rendering the old screen). The swap happens on the out
 * animation's end, so there are no timers.
 */
export function PageTransition({ location, render }: { location: string; render: (shown: string) => ReactNode }) {
  const [shown, setShown] = useState(location);
  const leaving = shown !== location;
  return (
    <div
      key={shown}
      data-slot="page"
      className={leaving ? 'animate-page-out' : 'animate-page-in'}
      onAnimationEnd={leaving ? () => setShown(location) : undefined}
    >
      {render(shown)}
    </div>
  );
}
