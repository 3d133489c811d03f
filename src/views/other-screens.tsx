// The screens of the table that are not a first screen (the login form, the folders and their messages):
// their own chunk, asked for at start-up beside the first screen's (routes.tsx), so the first download
// carries only the first screens' rows and a deep link or the next click finds these loaded.
import type { ReactNode } from 'react';
import { PEOPLE_KINDS } from '../../shared/people-contract';
import { PRIVACY_KINDS } from '../../shared/privacy-contract';
import { byId, idOf, NotFound, screen, type RouteParams } from './lazy-screen';
import type { RouteName } from './route-table';

const ComposePage = screen(() => import('./pages/compose/compose-page').then((m) => m.ComposePage), ['messages', 'compose', 'templates']);
const TemplatesPage = screen(() => import('./pages/templates/templates-page').then((m) => m.TemplatesPage), ['templates']);
const ReceptionPage = screen(() => import('./pages/reception/reception-page').then((m) => m.ReceptionPage), ['messages', 'reception']);
const RecipientListsPage = screen(
  () => import('./pages/recipient-lists/recipient-lists-page').then((m) => m.RecipientListsPage),
  ['recipient-lists', 'compose'],
);
const RecipientListsTrashPage = screen(
  () => import('./pages/recipient-lists/trash-page').then((m) => m.RecipientListsTrashPage),
  ['recipient-lists'],
);
const RecipientListPage = screen(
  () => import('./pages/recipient-lists/recipient-list-page').then((m) => m.RecipientListPage),
  ['recipient-lists', 'compose'],
);
const SettingsSignaturePage = screen(
  () => import('./pages/settings/signature-page').then((m) => m.SettingsSignaturePage),
  ['settings/signature'],
);
const SettingsSchoolPage = screen(() => import('./pages/settings/school-page').then((m) => m.SettingsSchoolPage), ['settings/school']);
const SettingsSsoPage = screen(() => import('./pages/settings/sso-page').then((m) => m.SettingsSsoPage), ['settings/sso']);
const SettingsRetentionPage = screen(() => import('./pages/retention/retention-page').then((m) => m.SettingsRetentionPage), ['retention']);
const SettingsQuotaPage = screen(() => import('./pages/settings/quota-page').then((m) => m.SettingsQuotaPage), ['settings']);
const SettingsStaffPage = screen(() => import('./pages/staff/staff-page').then((m) => m.SettingsStaffPage), ['staff']);
const SettingsRosterPage = screen(() => import('./pages/roster/roster-page').then((m) => m.SettingsRosterPage), ['roster']);
const SettingsPeoplePage = screen(
  () => import('./pages/people/people-page').then((m) => m.SettingsPeoplePage),
  ['people', 'recipient-lists'],
);
const SettingsPersonPage = screen(
  () => import('./pages/people/person-page').then((m) => m.SettingsPersonPage),
  ['people', 'recipient-lists'],
);
const AuditPage = screen(() => import('./pages/audit/audit-page').then((m) => m.AuditPage), ['audit']);
const PrivacyPage = screen(() => import('./pages/privacy/privacy-page').then((m) => m.PrivacyPage), ['privacy']);
const PrivacyPersonPage = screen(
  () => import('./pages/privacy/person-page').then((m) => m.PrivacyPersonPage),
  ['privacy', 'privacy-requests'],
);
const InvitationPage = screen(() => import('./pages/staff/invitation-page').then((m) => m.InvitationPage), ['staff/invitation']);
const DashboardUsersPage = screen(
  () => import('./pages/dashboard/users-page').then((m) => m.DashboardUsersPage),
  ['dashboard', 'dashboard/activity'],
);
const RankingPage = screen(() => import('./pages/dashboard/ranking-page').then((m) => m.RankingPage), ['dashboard', 'dashboard/activity']);
const DashboardConnectivityPage = screen(
  () => import('./pages/dashboard/connectivity-page').then((m) => m.DashboardConnectivityPage),
  ['dashboard'],
);
const ConnectivityCoursePage = screen(
  () => import('./pages/dashboard/connectivity-course-page').then((m) => m.ConnectivityCoursePage),
  ['dashboard'],
);
const CallListPrintPage = screen(() => import('./pages/dashboard/call-list-print-page').then((m) => m.CallListPrintPage), ['dashboard']);
const NewsCategoriesPage = screen(() => import('./pages/news/categories-page').then((m) => m.NewsCategoriesPage), ['news/admin', 'news']);
const NewsTrashPage = screen(() => import('./pages/news/trash-page').then((m) => m.NewsTrashPage), ['news/admin', 'news']);
const NewsWeekPage = screen(() => import('./pages/news/week-page').then((m) => m.NewsWeekPage), ['news/admin']);
const NewsWallPage = screen(() => import('./pages/news/wall-page').then((m) => m.NewsWallPage), ['news']);
const NewsDeskPage = screen(() => import('./pages/news/desk-page').then((m) => m.NewsDeskPage), ['news']);
const NewsComposePage = screen(() => import('./pages/news/compose-page').then((m) => m.NewsComposePage), ['compose', 'news/compose']);

const ForgotPasswordPage = screen(() => import('./pages/passwords/forgot-password-page').then((m) => m.ForgotPasswordPage), ['passwords']);
const ResetPasswordPage = screen(() => import('./pages/passwords/reset-password-page').then((m) => m.ResetPasswordPage), ['passwords']);

const SetupPage = screen(() => import('./pages/setup/setup-page').then((m) => m.SetupPage), ['setup']);

const OTHER_SCREENS = {
  'forgot-password': () => <ForgotPasswordPage />,
  'reset-password': ({ token }) => <ResetPasswordPage key={token} token={token ?? ''} />,
  setup: () => <SetupPage />,
  new: () => <ComposePage />,
  'sent-reception': byId(ReceptionPage),
  'recipient-lists': () => <RecipientListsPage />,
  'recipient-lists-trash': () => <RecipientListsTrashPage />,
  // Without an id, the lists themselves; a malformed id is the 404 page, like another user's list.
  'recipient-list': byId(RecipientListPage, () => <RecipientListsPage />),
  templates: () => <TemplatesPage />,
  'dashboard-connectivity': () => <DashboardConnectivityPage />,
  'dashboard-users': () => <DashboardUsersPage />,
  // Without an id, the dashboard's table of courses.
  'connectivity-course': byId(ConnectivityCoursePage, () => <DashboardConnectivityPage />),
  'connectivity-call-list': byId(CallListPrintPage),
  'ranking-courses': () => <RankingPage key="courses" kind="courses" />,
  'ranking-users': () => <RankingPage key="users" kind="users" />,
  mural: () => <NewsDeskPage />,
  'mural-categories': () => <NewsCategoriesPage />,
  'mural-news': () => <NewsWallPage />,
  'mural-trash': () => <NewsTrashPage />,
  'mural-news-week': () => <NewsWeekPage />,
  'mural-news-compose': () => <NewsComposePage />,
  'settings-message-quota': () => <SettingsQuotaPage />,
  'settings-message-signature': () => <SettingsSignaturePage />,
  'settings-school': () => <SettingsSchoolPage />,
  'settings-staff': () => <SettingsStaffPage />,
  // A new visit per link: another token is another invitation.
  invitation: ({ token }: RouteParams) => <InvitationPage key={token} token={token ?? ''} />,
  'settings-sso': () => <SettingsSsoPage />,
  'settings-retention': () => <SettingsRetentionPage />,
  'settings-roster': () => <SettingsRosterPage />,
  'settings-people': () => <SettingsPeoplePage />,
  // A kind the contract does not know, or a malformed id, is the 404 page.
  'settings-person': (params) => {
    const id = idOf(params);
    const kind = PEOPLE_KINDS.find((k) => k === params.kind);
    return id === null || kind === undefined ? <NotFound /> : <SettingsPersonPage key={`${kind}-${id}`} kind={kind} id={id} />;
  },
  audit: () => <AuditPage />,
  privacy: () => <PrivacyPage />,
  'privacy-person': (params) => {
    const id = idOf(params);
    const kind = PRIVACY_KINDS.find((k) => k === params.kind);
    return id === null || kind === undefined ? <NotFound /> : <PrivacyPersonPage key={`${kind}-${id}`} kind={kind} id={id} />;
  },
} satisfies Partial<Record<RouteName, (params: RouteParams) => ReactNode>>;

/** The routes this chunk shows. */
export type OtherScreenName = keyof typeof OTHER_SCREENS;

/** The screen of route `name`, from the route's params. */
export function OtherScreen({ name, params }: { name: OtherScreenName; params: RouteParams }) {
  return OTHER_SCREENS[name](params);
}
