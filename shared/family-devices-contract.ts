// The guardian app's device calls (server/routes/guardian-app.ts, mounted at /api/app, bearer token):
// «No es mi teléfono», which ends every session of the phone, and the «Avisos» settings, pushes on or off
// per child. Paths are relative to the API base (`/api`).
//
//   DELETE /api/app/sessions       → 200 { data: PhoneSessionsEnded }: every app session of every guardian
//                                    record with this session's phone, in every school, ended, and their
//                                    push subscriptions removed (this one's token too)
//   GET    /api/app/notifications  → 200 { data: FamilyNotifications }
//   PUT    /api/app/notifications  FamilyNotificationsBody → 200 { data: FamilyNotifications }; 422 when
//                                  the body is malformed or names a child who is not this guardian's

export const FAMILY_DEVICES_API = {
  sessions: '/app/sessions',
  notifications: '/app/notifications',
} as const;

export interface PhoneSessionsEnded {
  /** Sessions ended (signed-in devices, across schools). */
  sessions: number;
  /** Push subscriptions removed. */
  subscriptions: number;
}

/** One child as «Avisos» lists them: their school and course, and whether their messages push. */
export interface FamilyChildNotices {
  student_id: number;
  name: string;
  school: string;
  course: string;
  push: boolean;
}

export interface FamilyNotifications {
  children: FamilyChildNotices[];
}

/** The children to change (others stay as they are). */
export interface FamilyNotificationsBody {
  children: { student_id: number; push: boolean }[];
}

export const FAMILY_DEVICES_TEXTS = {
  childrenInvalid: 'Indica cada hijo o hija con su número y si recibe avisos (sí o no).',
  childNotYours: 'Uno de los estudiantes indicados no está a tu cargo.',
} as const;
