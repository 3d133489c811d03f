// The card that asks to turn on notifications (machines/family/push.ts says when and why), above the inbox.
// Its own chunk, loaded after the first screen: its actor lives while the guardian is signed in, so it
// checks and renews once per visit, not on every return to the inbox.
import { useActorRef, useSelector } from '@xstate/react';
import { useRoute } from 'wouter';
import { type FamilyPushActor, familyPushMachine, selectPushBusy, selectPushCard } from '../../machines/family/push';
import { selectSchoolName } from '../../machines/family/session';
import { Button } from '../ui/button';
import { useFamilyT, useSession } from './family-context';
import { useExpiredToSession } from './page-actor';

export function PushOffer({ token }: { token: string }) {
  const actor = useActorRef(familyPushMachine, { input: { token } });
  useExpiredToSession(actor);
  const [onInbox] = useRoute('/');
  return onInbox ? <PushCardView actor={actor} /> : null;
}

function PushCardView({ actor }: { actor: FamilyPushActor }) {
  const t = useFamilyT();
  const card = useSelector(actor, selectPushCard);
  const busy = useSelector(actor, selectPushBusy);
  const school = useSelector(useSession(), selectSchoolName);
  const dismiss = () => actor.send({ type: 'push.dismiss' });
  if (card === 'none') return null;
  if (card === 'enabled') {
    return (
      <div role="status" className="flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-card p-3 text-sm">
        <p>{t('family.push.enabled')}</p>
        <Button variant="ghost" size="sm" onClick={dismiss}>
          {t('family.push.close')}
        </Button>
      </div>
    );
  }
  const blocked = card === 'denied' || card === 'unsupported';
  const title =
    card === 'denied' ? t('family.push.deniedTitle') : card === 'unsupported' ? t('family.push.unsupportedTitle') : t('family.push.title');
  const text =
    card === 'denied' ? t('family.push.denied') : card === 'unsupported' ? t('family.push.unsupported') : t('family.push.body', { school });
  return (
    <section aria-labelledby="push-title" className="flex flex-col gap-2 rounded-lg border border-primary/40 bg-card p-4">
      <h2 id="push-title" className="font-semibold">
        {title}
      </h2>
      <p className="text-sm">{text}</p>
      {card === 'failed' ? (
        <p role="alert" className="text-sm text-destructive">
          {t('family.push.failed')}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {blocked ? (
          <Button variant="outline" onClick={dismiss}>
            {t('family.push.understood')}
          </Button>
        ) : (
          <>
            <Button disabled={busy} onClick={() => actor.send({ type: 'push.enable' })}>
              {busy ? t('family.push.enabling') : card === 'failed' ? t('family.push.retry') : t('family.push.enable')}
            </Button>
            <Button variant="ghost" disabled={busy} onClick={dismiss}>
              {t('family.push.later')}
            </Button>
          </>
        )}
      </div>
    </section>
  );
}
