// The wall's actors in the families' app, as page-actor.ts makes the inbox's: started with their screen
// (or picture), stopped when it goes, their `session.expired` (a 401) handed to the session.
import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { type FamilyWallActor, familyWallMachine } from '../../machines/family/wall';
import { type FamilyWallFileActor, familyWallFileMachine } from '../../machines/family/wall-file';
import { type FamilyWallPostActor, familyWallPostMachine } from '../../machines/family/wall-post';
import type { WallFileInput } from '../../services/family/wall';
import { useSession } from './family-context';

function useExpiredToSession(actor: FamilyWallActor | FamilyWallPostActor | FamilyWallFileActor): void {
  const session = useSession();
  useEffect(() => {
    const subscription = actor.on('session.expired', () => session.send({ type: 'session.expired' }));
    return () => subscription.unsubscribe();
  }, [actor, session]);
}

export function useWallActor(token: string): FamilyWallActor {
  const actor = useActorRef(familyWallMachine, { input: { token } });
  useExpiredToSession(actor);
  return actor;
}

export function useWallPostActor(token: string, id: number): FamilyWallPostActor {
  const actor = useActorRef(familyWallPostMachine, { input: { token, id } });
  useExpiredToSession(actor);
  return actor;
}

export function useWallFileActor(input: WallFileInput): FamilyWallFileActor {
  const actor = useActorRef(familyWallFileMachine, { input });
  useExpiredToSession(actor);
  return actor;
}
