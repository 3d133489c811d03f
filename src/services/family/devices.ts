// The families' app's device calls (shared/family-devices-contract.ts) as actor logic: «No es mi teléfono»
// and the «Avisos» settings. Same client, checks and failures as ./api.ts.
import { fromPromise } from 'xstate';
import {
  FAMILY_DEVICES_API,
  type FamilyNotifications,
  type FamilyNotificationsBody,
  type PhoneSessionsEnded,
} from '../../../shared/family-devices-contract';
import { FamilyNotificationsBodyStruct, PhoneSessionsEndedBodyStruct } from '../../../shared/family-devices-structs';
import { call } from './api';
import { forgetSession } from './device';
import { forgetOfflineCopies } from './offline';
import { unsubscribeHere } from './push';

/**
 * Ends every session of this phone on the server, then forgets everything this device kept — the session,
 * the offline copies of the messages, the push subscription — as «Cerrar sesión» does: whoever holds the
 * phone says the family is not theirs, so nothing of it may stay readable here. Unlike «Cerrar sesión»,
 * nothing is forgotten when the server could not be told: the other devices would stay signed in.
 */
export const endPhoneSessions = fromPromise<PhoneSessionsEnded, { token: string }>(async ({ input, signal }) => {
  const { data } = await call(FAMILY_DEVICES_API.sessions, PhoneSessionsEndedBodyStruct, { method: 'DELETE', token: input.token, signal });
  forgetSession();
  await forgetOfflineCopies();
  await unsubscribeHere();
  return data;
});

export const fetchNotifications = fromPromise<FamilyNotifications, { token: string }>(async ({ input, signal }) => {
  const { data } = await call(FAMILY_DEVICES_API.notifications, FamilyNotificationsBodyStruct, { token: input.token, signal });
  return data;
});

/** One child's pushes on or off; the answer is every child as the server now has them. */
export const saveNotification = fromPromise<FamilyNotifications, { token: string; studentId: number; push: boolean }>(
  async ({ input, signal }) => {
    const { data } = await call(FAMILY_DEVICES_API.notifications, FamilyNotificationsBodyStruct, {
      method: 'PUT',
      body: { children: [{ student_id: input.studentId, push: input.push }] } satisfies FamilyNotificationsBody,
      token: input.token,
      signal,
    });
    return data;
  },
);
