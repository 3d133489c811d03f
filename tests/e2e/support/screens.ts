// Every route of the route table (src/views/route-table.ts) as a browser visits it: the address to open (ids
// filled from the signed-in user's own messages), the screen it lands on, and that screen's tab title.
// tests/unit/screens.test.ts checks this list names every route, so a new screen joins the phone pass.
import type { MessageKey } from '../../fixtures/texts';

/** Message ids of the signed-in user, one per folder, filled in at run time. */
export type MessageIds = Record<'inbox' | 'sent' | 'scheduled' | 'draft' | 'trash', number>;

export interface ScreenVisit {
  /** The route's `name` in the route table. */
  route: string;
  /** What to open; `{inbox}`… are replaced by a message id of that folder. */
  path: string;
  /** Where the visit ends (a redirect route goes elsewhere); `path` itself when absent. */
  landsOn?: string;
  /** The tab title's screen name ("Enviados · Hermes"). */
  title: MessageKey;
  /** Shown only to a visitor without a session. */
  guest?: boolean;
}

export const SCREENS: readonly ScreenVisit[] = [
  { route: 'login', path: '/login', title: 'pages.login', guest: true },
  // The password screens are a visitor's too; tests/e2e/passwords.spec.ts checks them on a phone.
  { route: 'forgot-password', path: '/forgot-password', title: 'pages.forgotPassword', guest: true },
  { route: 'reset-password', path: '/reset-password/enlace-de-prueba', title: 'pages.resetPassword', guest: true },
  // Only an install without a school shows it (tests/e2e/setup.spec.ts); this one sends it to the sign-in.
  { route: 'setup', path: '/setup', landsOn: '/login', title: 'pages.login', guest: true },
  // An invitation link no one was sent: its page says so (tests/e2e/staff.spec.ts follows a real one).
  { route: 'invitation', path: '/invitation/enlace-de-prueba', title: 'pages.invitation', guest: true },
  { route: 'index', path: '/', landsOn: '/inbox', title: 'pages.inbox' },
  { route: 'new', path: '/new', title: 'pages.new' },
  { route: 'inbox', path: '/inbox', title: 'pages.inbox' },
  { route: 'inbox-message', path: '/inbox/message/{inbox}', title: 'pages.message' },
  { route: 'sent', path: '/sent', title: 'pages.sent' },
  { route: 'sent-message', path: '/sent/message/{sent}', title: 'pages.message' },
  { route: 'sent-reception', path: '/sent/message/{sent}/reception', title: 'pages.reception' },
  { route: 'scheduled', path: '/scheduled', title: 'pages.scheduled' },
  { route: 'scheduled-message', path: '/scheduled/message/{scheduled}', title: 'pages.message' },
  { route: 'draft', path: '/draft', title: 'pages.draft' },
  { route: 'draft-message', path: '/draft/message/{draft}', title: 'pages.message' },
  { route: 'trash', path: '/trash', title: 'pages.trash' },
  { route: 'trash-message', path: '/trash/message/{trash}', title: 'pages.message' },
  { route: 'recipient-lists', path: '/recipient-lists', title: 'pages.recipientLists' },
  { route: 'recipient-lists-trash', path: '/recipient-lists/trash', title: 'pages.recipientListsTrash' },
  { route: 'recipient-list', path: '/recipient-list/1', title: 'pages.recipientList' },
  { route: 'templates', path: '/templates', title: 'pages.templates' },
  { route: 'dashboard', path: '/dashboard', landsOn: '/dashboard/connectivity', title: 'pages.dashboardConnectivity' },
  { route: 'dashboard-connectivity', path: '/dashboard/connectivity', title: 'pages.dashboardConnectivity' },
  { route: 'dashboard-users', path: '/dashboard/users', title: 'pages.dashboardUsers' },
  { route: 'connectivity-course', path: '/connectivity/course/1', title: 'pages.connectivityCourse' },
  { route: 'connectivity-call-list', path: '/connectivity/course/1/call-list', title: 'pages.callList' },
  { route: 'ranking-courses', path: '/ranking/courses', title: 'pages.rankingCourses' },
  { route: 'ranking-users', path: '/ranking/users', title: 'pages.rankingUsers' },
  { route: 'mural', path: '/mural', title: 'pages.newsDesk' },
  { route: 'mural-categories', path: '/mural/categories', title: 'pages.newsCategories' },
  { route: 'mural-news', path: '/mural/news', title: 'pages.newsWall' },
  { route: 'mural-trash', path: '/mural/trash', title: 'pages.newsTrash' },
  { route: 'mural-news-week', path: '/mural/news/week', title: 'pages.newsWeek' },
  { route: 'mural-news-compose', path: '/mural/news/compose', title: 'pages.newsCompose' },
  { route: 'settings', path: '/settings', landsOn: '/settings/message-quota', title: 'pages.settingsQuota' },
  { route: 'settings-message-quota', path: '/settings/message-quota', title: 'pages.settingsQuota' },
  { route: 'settings-message-signature', path: '/settings/message-signature', title: 'pages.settingsSignature' },
  { route: 'settings-school', path: '/settings/school', title: 'pages.settingsSchool' },
  { route: 'settings-staff', path: '/settings/staff', title: 'pages.settingsStaff' },
  { route: 'settings-sso', path: '/settings/sso', title: 'pages.settingsSso' },
  { route: 'settings-retention', path: '/settings/retention', title: 'pages.settingsRetention' },
  { route: 'settings-roster', path: '/settings/roster', title: 'pages.settingsRoster' },
  { route: 'settings-people', path: '/settings/people', title: 'pages.settingsPeople' },
  // The demo school's first student (another school's would say it is not found, with the same title).
  { route: 'settings-person', path: '/settings/people/estudiante/1', title: 'pages.settingsPerson' },
  { route: 'audit', path: '/audit', title: 'pages.audit' },
  { route: 'privacy', path: '/privacy', title: 'pages.privacy' },
  { route: 'privacy-person', path: '/privacy/estudiante/1', title: 'pages.privacyPerson' },
];

/** The address of a visit, its `{folder}` ids filled in. */
export function addressOf(visit: ScreenVisit, ids: MessageIds): string {
  return visit.path.replace(/\{(\w+)\}/g, (_whole, folder: keyof MessageIds) => String(ids[folder]));
}
