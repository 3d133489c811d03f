// A screen's actor in the families' app: started with the screen, stopped when it goes, and its
// `session.expired` (a 401) handed to the session, which signs the device out. The message screen's
// actor is made in its own chunk (message-page.tsx).
import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { type FamilyInboxActor, familyInboxMachine } from '../../machines/family/inbox';
import type { FamilyMessageActor } from '../../machines/family/message';
import type { FamilyPushActor } from '../../machines/family/push';
import { useSession } from './family-context';

export function useExpiredToSession(actor: FamilyInboxActor | FamilyMessageActor | FamilyPushActor): void {
  const session = useSession();
  useEffect(() => {
    const subscription = actor.on('session.expired', () => session.send({ type: 'session.expired' }));
    return () => subscription.unsubscribe();
  }, [actor, session]);
}

export function useInboxActor(token: string): FamilyInboxActor {
  const actor = useActorRef(familyInboxMachine, { input: { token } });
  useExpiredToSession(actor);
  return actor;
}
