// «Avisos en este teléfono», on the «Avisos» screen: the push machine in its settings place (decision
// 0222). After «Ahora no», or on a phone with no subscription, it offers to turn them on (the browser's
// question, the subscription, the server); blocked in the browser, it says how to allow them there.
import { useActorRef, useSelector } from '@xstate/react';
import { familyPushMachine, selectPushBusy, selectPushCard } from '../../machines/family/push';
import { Button } from '../ui/button';
import { useFamilyT } from './family-context';
import { useExpiredToSession } from './page-actor';

export function PushHere({ token }: { token: string }) {
  const t = useFamilyT();
  const actor = useActorRef(familyPushMachine, { input: { token, place: 'settings' } });
  useExpiredToSession(actor);
  const card = useSelector(actor, selectPushCard);
  const busy = useSelector(actor, selectPushBusy);
  if (card === 'none') return null;
  return (
    <section aria-labelledby="push-here-title" className="flex flex-col gap-2 rounded-lg border bg-card p-4">
      <h2 id="push-here-title" className="font-semibold">
        {t('family.pushHere.title')}
      </h2>
      {card === 'receiving' ? <p className="text-sm">{t('family.pushHere.receiving')}</p> : null}
      {card === 'enabled' ? (
        <p role="status" className="text-sm">
          {t('family.push.enabled')}
        </p>
      ) : null}
      {card === 'denied' ? <p className="text-sm">{t('family.push.denied')}</p> : null}
      {card === 'unsupported' ? <p className="text-sm">{t('family.push.unsupported')}</p> : null}
      {card === 'offer' || card === 'failed' ? (
        <>
          <p className="text-sm">{t('family.pushHere.off')}</p>
          {card === 'failed' ? (
            <p role="alert" className="text-sm text-destructive">
              {t('family.push.failed')}
            </p>
          ) : null}
          <Button className="self-start" disabled={busy} onClick={() => actor.send({ type: 'push.enable' })}>
            {busy ? t('family.pushHere.enabling') : t('family.pushHere.enable')}
          </Button>
        </>
      ) : null}
    </section>
  );
}
