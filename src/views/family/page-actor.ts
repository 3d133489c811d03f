// A screen's actor in the families' app: started with the screen, stopped when it goes, and its
// `session.expired` (a 401) handed to the session, which signs the device out.
import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { type FamilyInboxActor, familyInboxMachine } from '../../machines/family/inbox';
import { type FamilyMessageActor, familyMessageMachine } from '../../machines/family/message';
import { useSession } from './family-context';

function useExpiredToSession(actor: FamilyInboxActor | FamilyMessageActor): void {
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

export function useMessageActor(token: string, id: number): FamilyMessageActor {
  const actor = useActorRef(familyMessageMachine, { input: { token, id } });
  useExpiredToSession(actor);
  return actor;
}
