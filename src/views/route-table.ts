// The route table (SPEC §2): every route's path, who may enter it, its title and its entry in the sidebar.
// The sidebar lists the routes with `nav` that the user may enter, `document.title` shows `title`, and the
// route guard gets the access rules at start-up (views/actors.ts). What each route shows is routes.tsx's:
// this module imports no page, so the shell, the sidebar and the pages themselves can read it.
// Adding a screen: a row here, its screen in routes.tsx, its page, its machine and its texts
// (README "How to add a screen").
import { ADMIN_ROLES, NEWSFEED_ROLES, STAFF_ADMIN_ROLES, type CountType, type Folder } from '../../shared/codes';
import { PEOPLE_EDITORS } from '../../shared/person-rules';
import type { MessageKey } from '../i18n';
import type { RouteRule } from '../machines/app/route-rules';

export interface NavEntry {
  label: MessageKey;
  /** The entry is highlighted on any path under this prefix. */
  prefix: string;
  /** Where the link goes when not the route's own path. */
  href?: string;
  /** Folder counters from `GET /messages/info`. */
  counts?: CountType;
  /** The call to action at the top (Redactar). */
  primary?: boolean;
}

export interface RouteEntry extends RouteRule {
  /** Shell text (`pages.*`): the tab's title and the screen's name. */
  title: MessageKey;
  nav?: NavEntry;
}

/** A mail folder's two routes: the folder (`/inbox`, with its sidebar entry) and its reading view. */
function mailFolder<F extends Folder>(folder: F, title: MessageKey, nav: NavEntry) {
  return [
    { name: folder, path: `/${folder}`, access: 'login', title, nav },
    { name: `${folder}-message`, path: `/${folder}/message/:id?`, access: 'login', title: 'pages.message' },
  ] as const;
}

export const ROUTE_TABLE = [
  { name: 'index', path: '/', access: 'login', redirect: '/inbox', title: 'pages.inbox' },
  { name: 'login', path: '/login', access: 'guest', title: 'pages.login' },
  { name: 'forgot-password', path: '/forgot-password', access: 'guest', title: 'pages.forgotPassword' },
  { name: 'reset-password', path: '/reset-password/:token', access: 'guest', title: 'pages.resetPassword' },
  // The first start: the server sends every page here until the install has a school (server/setup/state.ts).
  { name: 'setup', path: '/setup', access: 'guest', title: 'pages.setup' },
  { name: 'new', path: '/new', access: 'login', title: 'pages.new', nav: { label: 'nav.new', prefix: '/new', primary: true } },
  ...mailFolder('inbox', 'pages.inbox', { label: 'nav.inbox', prefix: '/inbox', counts: 'received' }),
  ...mailFolder('sent', 'pages.sent', { label: 'nav.sent', prefix: '/sent', counts: 'sent' }),
  { name: 'sent-reception', path: '/sent/message/:id/reception', access: 'login', title: 'pages.reception' },
  ...mailFolder('scheduled', 'pages.scheduled', { label: 'nav.scheduled', prefix: '/scheduled', counts: 'scheduled' }),
  ...mailFolder('draft', 'pages.draft', { label: 'nav.draft', prefix: '/draft', counts: 'draft' }),
  ...mailFolder('trash', 'pages.trash', { label: 'nav.trash', prefix: '/trash' }),
  {
    name: 'recipient-lists',
    path: '/recipient-lists',
    access: 'login',
    title: 'pages.recipientLists',
    nav: { label: 'nav.recipientLists', prefix: '/recipient-list' },
  },
  { name: 'recipient-lists-trash', path: '/recipient-lists/trash', access: 'login', title: 'pages.recipientListsTrash' },
  { name: 'recipient-list', path: '/recipient-list/:id?', access: 'login', title: 'pages.recipientList' },
  {
    name: 'templates',
    path: '/templates',
    access: 'login',
    title: 'pages.templates',
    nav: { label: 'nav.templates', prefix: '/templates' },
  },
  {
    name: 'dashboard',
    path: '/dashboard',
    access: 'login',
    roles: ADMIN_ROLES,
    redirect: '/dashboard/connectivity',
    title: 'pages.dashboard',
    nav: { label: 'nav.dashboard', prefix: '/dashboard' },
  },
  {
    name: 'dashboard-connectivity',
    path: '/dashboard/connectivity',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.dashboardConnectivity',
  },
  { name: 'dashboard-users', path: '/dashboard/users', access: 'login', roles: ADMIN_ROLES, title: 'pages.dashboardUsers' },
  {
    name: 'connectivity-course',
    path: '/connectivity/course/:id?',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.connectivityCourse',
  },
  {
    name: 'connectivity-call-list',
    path: '/connectivity/course/:id/call-list',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.callList',
  },
  { name: 'ranking-courses', path: '/ranking/courses', access: 'login', roles: ADMIN_ROLES, title: 'pages.rankingCourses' },
  { name: 'ranking-users', path: '/ranking/users', access: 'login', roles: ADMIN_ROLES, title: 'pages.rankingUsers' },
  {
    name: 'mural',
    path: '/mural',
    access: 'login',
    device: 'latam',
    browse: { roles: NEWSFEED_ROLES, query: 'newsfeed', otherwise: '/mural/news' },
    title: 'pages.newsDesk',
  },
  {
    name: 'mural-categories',
    path: '/mural/categories',
    access: 'login',
    device: 'latam',
    roles: NEWSFEED_ROLES,
    title: 'pages.newsCategories',
  },
  {
    name: 'mural-news',
    path: '/mural/news',
    access: 'login',
    device: 'latam',
    title: 'pages.newsWall',
    nav: { label: 'nav.news', prefix: '/mural' },
  },
  { name: 'mural-trash', path: '/mural/trash', access: 'login', device: 'latam', roles: NEWSFEED_ROLES, title: 'pages.newsTrash' },
  // The printable weekly wall: any latam staff user, like the wall itself.
  { name: 'mural-news-week', path: '/mural/news/week', access: 'login', device: 'latam', title: 'pages.newsWeek' },
  {
    name: 'mural-news-compose',
    path: '/mural/news/compose',
    access: 'login',
    device: 'latam',
    roles: NEWSFEED_ROLES,
    title: 'pages.newsCompose',
  },
  {
    name: 'settings',
    path: '/settings',
    access: 'login',
    roles: ADMIN_ROLES,
    redirect: '/settings/message-quota',
    title: 'pages.settings',
  },
  {
    name: 'settings-message-quota',
    path: '/settings/message-quota',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.settingsQuota',
    nav: { label: 'nav.settings', prefix: '/settings' },
  },
  {
    name: 'settings-message-signature',
    path: '/settings/message-signature',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.settingsSignature',
  },
  { name: 'settings-school', path: '/settings/school', access: 'login', roles: ADMIN_ROLES, title: 'pages.settingsSchool' },
  // The school's staff accounts: its administrators only (the other settings screens' roles see no tab).
  { name: 'settings-staff', path: '/settings/staff', access: 'login', roles: STAFF_ADMIN_ROLES, title: 'pages.settingsStaff' },
  // The page an invitation e-mail links to: for someone without an account yet.
  { name: 'invitation', path: '/invitation/:token', access: 'guest', title: 'pages.invitation' },
  // The school's own administrators only, as its staff accounts (the API answers 403 to the others).
  { name: 'settings-sso', path: '/settings/sso', access: 'login', roles: STAFF_ADMIN_ROLES, title: 'pages.settingsSso' },
  // How long the school keeps its data: its administrators, as its own settings (the API answers 403 to the others).
  { name: 'settings-retention', path: '/settings/retention', access: 'login', roles: ADMIN_ROLES, title: 'pages.settingsRetention' },
  // The school's enrolment brought in from its files: its administrators only, as its staff accounts.
  { name: 'settings-roster', path: '/settings/roster', access: 'login', roles: STAFF_ADMIN_ROLES, title: 'pages.settingsRoster' },
  // The school's students and guardians, one place to correct them: whoever may change a person's record.
  { name: 'settings-people', path: '/settings/people', access: 'login', roles: PEOPLE_EDITORS, title: 'pages.settingsPeople' },
  {
    name: 'settings-person',
    path: '/settings/people/:kind/:id',
    access: 'login',
    roles: PEOPLE_EDITORS,
    title: 'pages.settingsPerson',
  },
  // The audit log: the school's administration (decision 0258), as the dashboards and the settings.
  {
    name: 'audit',
    path: '/audit',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.audit',
    nav: { label: 'nav.audit', prefix: '/audit' },
  },
  // A person's data, to answer their request to see it: the school's administrators (the API answers 403 to the others).
  {
    name: 'privacy',
    path: '/privacy',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.privacy',
    nav: { label: 'nav.privacy', prefix: '/privacy' },
  },
  { name: 'privacy-person', path: '/privacy/:kind/:id', access: 'login', roles: ADMIN_ROLES, title: 'pages.privacyPerson' },
] as const satisfies readonly RouteEntry[];

export type RouteName = (typeof ROUTE_TABLE)[number]['name'];

/** What the route guard needs of the table. */
export const ROUTE_RULES: readonly RouteRule[] = (ROUTE_TABLE as readonly RouteEntry[]).map(
  ({ title: _title, nav: _nav, ...rule }) => rule,
);

/** The sidebar's entries, in table order. */
export const NAV_ROUTES = (ROUTE_TABLE as readonly RouteEntry[]).filter(
  (route): route is RouteEntry & { nav: NavEntry } => route.nav !== undefined,
);
