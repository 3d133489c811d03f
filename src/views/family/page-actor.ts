// A screen's actor in the families' app: started with the screen, stopped when it goes, and its
// `session.expired` (a 401) handed to the session, which signs the device out.
import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import type { FamilyAttachment } from '../../../shared/family-contract';
import { type FamilyChildrenActor, familyChildrenMachine } from '../../machines/family/children';
import { type FamilyDownloadActor, familyDownloadMachine } from '../../machines/family/download';
import { type FamilyInboxActor, familyInboxMachine } from '../../machines/family/inbox';
import { type FamilyMessageActor, familyMessageMachine } from '../../machines/family/message';
import { useSession } from './family-context';

type ScreenActor = FamilyInboxActor | FamilyMessageActor | FamilyChildrenActor | FamilyDownloadActor;

function useExpiredToSession(actor: ScreenActor): void {
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

export function useMessageActor(token: string, id: number): FamilyMessageActor {
  const actor = useActorRef(familyMessageMachine, { input: { token, id } });
  useExpiredToSession(actor);
  return actor;
}

export function useChildrenActor(token: string): FamilyChildrenActor {
  const actor = useActorRef(familyChildrenMachine, { input: { token } });
  useExpiredToSession(actor);
  return actor;
}

export function useDownloadActor(token: string, messageId: number, attachment: FamilyAttachment): FamilyDownloadActor {
  const actor = useActorRef(familyDownloadMachine, { input: { token, messageId, attachment } });
  useExpiredToSession(actor);
  return actor;
}
