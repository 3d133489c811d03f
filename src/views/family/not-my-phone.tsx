// «No es mi teléfono»: a button in the header, then the question in place with what it does, in full.
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { selectIsConfirming, selectIsEnding, selectReleaseFailure } from '../../machines/family/not-my-phone';
import { Button } from '../ui/button';
import { ConfirmPanel } from '../ui/confirm-panel';
import { useNotMyPhoneActor } from './devices-actors';
import { useFamilyT } from './family-context';

export function NotMyPhone({ token }: { token: string }) {
  const t = useFamilyT();
  const release = useNotMyPhoneActor(token);
  const confirming = useSelector(release, selectIsConfirming);
  const ending = useSelector(release, selectIsEnding);
  const failure = useSelector(release, selectReleaseFailure);
  const action = useRef<HTMLButtonElement>(null);
  const wasConfirming = useRef(false);
  // «Cancelar» removes the panel (and the focused button with it): focus goes back to the button that opened it.
  useEffect(() => {
    if (wasConfirming.current && !confirming) action.current?.focus();
    wasConfirming.current = confirming;
  }, [confirming]);
  if (!confirming) {
    return (
      <Button ref={action} variant="ghost" size="sm" onClick={() => release.send({ type: 'release.ask' })}>
        {t('family.devices.notMyPhone.action')}
      </Button>
    );
  }
  return (
    <div className="flex w-full flex-col gap-2">
      <ConfirmPanel
        title={t('family.devices.notMyPhone.title')}
        description={t('family.devices.notMyPhone.description')}
        confirmLabel={ending ? t('family.devices.notMyPhone.ending') : t('family.devices.notMyPhone.confirm')}
        cancelLabel={t('family.devices.notMyPhone.cancel')}
        destructive
        focus="cancel"
        onConfirm={() => release.send({ type: 'release.confirm' })}
        onCancel={() => release.send({ type: 'release.cancel' })}
      />
      {failure ? (
        <p role="alert" className="text-sm text-destructive">
          {failure === 'offline' ? t('family.devices.notMyPhone.offline') : t('family.devices.notMyPhone.error')}
        </p>
      ) : null}
    </div>
  );
}
