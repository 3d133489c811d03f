// The school's logo in the header of a printed page (the call list, the news wall's week), from the
// signed-in user; nothing when the school has none.
import { useSelector } from '@xstate/react';
import type * as React from 'react';
import { selectInstitutionName, selectSchoolLogoUrl } from '../../machines/session/selectors';
import { logoHref } from '../../services/settings/school';
import { sessionActor } from '../actors';
import { cn } from '../lib/utils';

/** `decorative` where the school's name is written beside it (its alt would say it twice). */
export function SchoolLogo({
  decorative = false,
  className,
  ...props
}: Omit<React.ComponentProps<'img'>, 'src' | 'alt'> & { decorative?: boolean }) {
  const url = useSelector(sessionActor, selectSchoolLogoUrl);
  const name = useSelector(sessionActor, selectInstitutionName);
  if (!url) return null;
  return (
    <img
      src={logoHref(url)}
      alt={decorative ? '' : (name ?? '')}
      data-slot="school-logo"
      className={cn('h-12 w-auto max-w-40 shrink-0 object-contain print:h-[16mm] print:max-w-[50mm]', className)}
      {...props}
    />
  );
}
