// The device screens' actors («Avisos», «No es mi teléfono»): started with their component, stopped when it
// goes, and what they tell the root handed to the session (a 401 signs the device out; every session
// ended by «No es mi teléfono» goes back to sign-in).
import { useActorRef } from '@xstate/react';
import { useEffect } from 'react';
import { type FamilyNotMyPhoneActor, familyNotMyPhoneMachine } from '../../machines/family/not-my-phone';
import { type FamilyNotificationsActor, familyNotificationsMachine } from '../../machines/family/notifications';
import { useSession } from './family-context';

export function useNotificationsActor(token: string): FamilyNotificationsActor {
  const actor = useActorRef(familyNotificationsMachine, { input: { token } });
  const session = useSession();
  useEffect(() => {
    const subscription = actor.on('session.expired', () => session.send({ type: 'session.expired' }));
    return () => subscription.unsubscribe();
  }, [actor, session]);
  return actor;
}

export function useNotMyPhoneActor(token: string): FamilyNotMyPhoneActor {
  const actor = useActorRef(familyNotMyPhoneMachine, { input: { token } });
  const session = useSession();
  useEffect(() => {
    const ended = actor.on('session.ended', () => session.send({ type: 'session.ended' }));
    const expired = actor.on('session.expired', () => session.send({ type: 'session.expired' }));
    return () => {
      ended.unsubscribe();
      expired.unsubscribe();
    };
  }, [actor, session]);
  return actor;
}
