// The account's «Cambiar contraseña» (decision 0168), beside «Cerrar sesión»: its actor lives with the layout;
// the dialog, its texts and the password rule load the first time it opens, never before.
import { Suspense } from 'react';
import { useSelector } from '@xstate/react';
import { changePasswordMachine, selectIsOpen, type ChangePasswordActor } from '../../../machines/passwords/change';
import { selectInstitutionName, selectUserEmail, selectUserName } from '../../../machines/session/selectors';
import { sessionActor } from '../../actors';
import { screen } from '../../lazy-screen';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';

const ChangePasswordDialog = screen(() => import('./change-password-dialog').then((m) => m.ChangePasswordDialog), ['passwords']);

export function ChangePasswordEntry() {
  const t = useT();
  const actor = usePageActor(changePasswordMachine, { input: undefined });
  const owner = useSelectors(sessionActor, { name: selectUserName, email: selectUserEmail, school: selectInstitutionName });
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="px-2 sm:px-3"
        title={t('account.changePassword')}
        disabled={!actor}
        onClick={() => actor?.send({ type: 'password.open', owner })}
      >
        <svg
          aria-hidden
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          className="sm:hidden"
        >
          <circle cx="7.5" cy="15.5" r="4.5" />
          <path d="m10.7 12.3 9.3-9.3M16 7l3 3M19 4l2 2" />
        </svg>
        <span className="sr-only sm:not-sr-only">{t('account.changePassword')}</span>
      </Button>
      {actor && <DialogWhenOpen actor={actor} />}
    </>
  );
}

function DialogWhenOpen({ actor }: { actor: ChangePasswordActor }) {
  const open = useSelector(actor, selectIsOpen);
  return open ? (
    <Suspense fallback={null}>
      <ChangePasswordDialog actor={actor} />
    </Suspense>
  ) : null;
}
