// Runtime checks of the guardian app's device answers (family-devices-contract.ts), read by the families'
// app only; `type()` so fields the server adds later do not break an installed app.
import { array, boolean, number, string, type, type Describe } from 'superstruct';
import type { FamilyChildNotices, FamilyNotifications, PhoneSessionsEnded } from './family-devices-contract';

const PhoneSessionsEndedStruct: Describe<PhoneSessionsEnded> = type({ sessions: number(), subscriptions: number() });

/** `DELETE /app/sessions` → `{ data }`. */
export const PhoneSessionsEndedBodyStruct = type({ data: PhoneSessionsEndedStruct });

const FamilyChildNoticesStruct: Describe<FamilyChildNotices> = type({
  student_id: number(),
  name: string(),
  school: string(),
  course: string(),
  push: boolean(),
});

const FamilyNotificationsStruct: Describe<FamilyNotifications> = type({ children: array(FamilyChildNoticesStruct) });

/** `GET` and `PUT /app/notifications` → `{ data }`. */
export const FamilyNotificationsBodyStruct = type({ data: FamilyNotificationsStruct });
