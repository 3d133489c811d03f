// A screen's actor in the families' app: started with the screen, stopped when it goes, and its
// `session.expired` (a 401) handed to the session, which signs the device out. The message screen's
// actor is made in its own chunk (message-page.tsx).
import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { type FamilyChildrenActor, familyChildrenMachine } from '../../machines/family/children';
import type { FamilyDownloadActor } from '../../machines/family/download';
import { type FamilyInboxActor, familyInboxMachine } from '../../machines/family/inbox';
import type { FamilyMessageActor } from '../../machines/family/message';
import type { FamilyPushActor } from '../../machines/family/push';
import { useSession } from './family-context';

type ScreenActor = FamilyInboxActor | FamilyMessageActor | FamilyPushActor | FamilyChildrenActor | FamilyDownloadActor;

export function useExpiredToSession(actor: ScreenActor): void {
  const session = useSession();
  useEffect(() => {
    // Every screen actor emits the same event; one subscription type for them all.
    const subscription = (actor as FamilyInboxActor).on('session.expired', () => session.send({ type: 'session.expired' }));
    return () => subscription.unsubscribe();
  }, [actor, session]);
}

/** The inbox, started on the child of the address (later changes are sent to it: the search typed stays). */
export function useInboxActor(token: string, student: number | null): FamilyInboxActor {
  const actor = useActorRef(familyInboxMachine, { input: { token, student } });
  useEffect(() => {
    actor.send({ type: 'inbox.child', student });
  }, [actor, student]);
  useExpiredToSession(actor);
  return actor;
}

export function useChildrenActor(token: string): FamilyChildrenActor {
  const actor = useActorRef(familyChildrenMachine, { input: { token } });
  useExpiredToSession(actor);
  return actor;
}
