import { useState } from 'react';
import type { SchoolClock } from '../../../machines/dashboard/period-rules';
import { selectSchoolCountry, selectTimezone } from '../../../machines/session/selectors';
import { sessionActor } from '../../actors';
import { useSelectors } from '../../lib/selectors';

/**
 * The school's clock as the page opened: the newest periods a data screen offers are the school's (its zone,
 * its country's school year), and they do not move while the page is open.
 */
export function useSchoolClock(): SchoolClock {
  const { timeZone, country } = useSelectors(sessionActor, { timeZone: selectTimezone, country: selectSchoolCountry });
  const [clock] = useState(() => ({ now: Date.now(), timeZone, country }));
  return clock;
}
