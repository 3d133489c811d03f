// The route table (SPEC §2): every route's path, who may enter it, its title, its screen and its entry in
// the sidebar. The router renders `screen`, the sidebar lists the routes with `nav` that the user may
// enter, `document.title` shows `title`, and the route guard gets the access rules at start-up
// (views/actors.ts). Adding a screen: a row here, its page, its machine and its texts (README).
import { lazy, type ComponentType, type ReactNode } from 'react';
import { ADMIN_ROLES, NEWSFEED_ROLES, type CountType, type Folder } from '../../shared/codes';
import { loadTexts, type MessageKey, type Namespace } from '../i18n';
import type { RouteRule } from '../machines/app/route-rules';

export type RouteParams = Record<string, string | undefined>;

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

export interface RouteDef extends RouteRule {
  /** Shell text (`pages.*`): the tab's title and the screen's name. */
  title: MessageKey;
  /** What the route shows, from its params (`:id`). */
  screen: (params: RouteParams) => ReactNode;
  nav?: NavEntry;
}

/** A screen's chunk and its texts, loaded together; the route shows the shell's splash meanwhile. */
function screen<P extends object>(load: () => Promise<ComponentType<P>>, texts: readonly Namespace[] = []) {
  return lazy(async () => {
    const [component] = await Promise.all([load(), loadTexts(texts)]);
    return { default: component };
  });
}

const LoginPage = screen(() => import('./pages/session/login-page').then((m) => m.LoginPage), ['session']);
const ComposePage = screen(() => import('./pages/compose/compose-page').then((m) => m.ComposePage), ['messages', 'compose', 'templates']);
const TemplatesPage = screen(() => import('./pages/templates/templates-page').then((m) => m.TemplatesPage), ['templates']);
const FolderPage = screen(() => import('./pages/messages/folder-page').then((m) => m.FolderPage), ['messages']);
const MessagePage = screen(() => import('./pages/messages/message-page').then((m) => m.MessagePage), ['messages', 'reception']);
const ReceptionPage = screen(() => import('./pages/reception/reception-page').then((m) => m.ReceptionPage), ['messages', 'reception']);
const RecipientListsPage = screen(() => import('./pages/recipient-lists/recipient-lists-page').then((m) => m.RecipientListsPage), ['recipient-lists', 'compose']);
const RecipientListsTrashPage = screen(() => import('./pages/recipient-lists/trash-page').then((m) => m.RecipientListsTrashPage), ['recipient-lists']);
const RecipientListPage = screen(() => import('./pages/recipient-lists/recipient-list-page').then((m) => m.RecipientListPage), ['recipient-lists', 'compose']);
const SettingsSignaturePage = screen(() => import('./pages/settings/signature-page').then((m) => m.SettingsSignaturePage), ['settings/signature']);
const SettingsQuotaPage = screen(() => import('./pages/settings/quota-page').then((m) => m.SettingsQuotaPage), ['settings']);
const DashboardUsersPage = screen(() => import('./pages/dashboard/users-page').then((m) => m.DashboardUsersPage), ['dashboard', 'dashboard/activity']);
const RankingPage = screen(() => import('./pages/dashboard/ranking-page').then((m) => m.RankingPage), ['dashboard', 'dashboard/activity']);
const DashboardConnectivityPage = screen(() => import('./pages/dashboard/connectivity-page').then((m) => m.DashboardConnectivityPage), ['dashboard']);
const ConnectivityCoursePage = screen(() => import('./pages/dashboard/connectivity-course-page').then((m) => m.ConnectivityCoursePage), ['dashboard']);
const CallListPrintPage = screen(() => import('./pages/dashboard/call-list-print-page').then((m) => m.CallListPrintPage), ['dashboard']);
const NewsCategoriesPage = screen(() => import('./pages/news/categories-page').then((m) => m.NewsCategoriesPage), ['news/admin', 'news']);
const NewsTrashPage = screen(() => import('./pages/news/trash-page').then((m) => m.NewsTrashPage), ['news/admin', 'news']);
const NewsWeekPage = screen(() => import('./pages/news/week-page').then((m) => m.NewsWeekPage), ['news/admin']);
const NewsWallPage = screen(() => import('./pages/news/wall-page').then((m) => m.NewsWallPage), ['news']);
const NewsDeskPage = screen(() => import('./pages/news/desk-page').then((m) => m.NewsDeskPage), ['news']);
const ErrorPage = screen(() => import('./pages/app/error-page').then((m) => m.ErrorPage));
const NewsComposePage = screen(() => import('./pages/news/compose-page').then((m) => m.NewsComposePage), ['compose', 'news/compose']);

/** A path id: digits only (anything else is the 404 page, like an id that is not the user's). */
const idOf = (params: RouteParams): number | null => (params.id && /^\d{1,12}$/.test(params.id) ? Number(params.id) : null);

/** The 404 page: unknown paths, and known ones with a malformed id. */
export const NotFound = () => <ErrorPage code={404} />;

/** `/<folder>/message/:id`: the reading view; without an id, the folder itself. */
function messageOr(folder: Folder) {
  return (params: RouteParams) => {
    const id = idOf(params);
    return id === null ? <FolderPage folder={folder} /> : <MessagePage key={id} folder={folder} id={id} />;
  };
}

/** A mail folder's two routes: the folder (`/inbox`, with its sidebar entry) and its reading view. */
function mailFolder<F extends Folder>(folder: F, title: MessageKey, nav: NavEntry) {
  return [
    { name: folder, path: `/${folder}`, access: 'login', title, screen: () => <FolderPage folder={folder} />, nav },
    { name: `${folder}-message`, path: `/${folder}/message/:id?`, access: 'login', title: 'pages.message', screen: messageOr(folder) },
  ] as const;
}

export const ROUTES = [
  { name: 'index', path: '/', access: 'login', redirect: '/inbox', title: 'pages.inbox', screen: () => null },
  { name: 'login', path: '/login', access: 'guest', title: 'pages.login', screen: () => <LoginPage /> },
  {
    name: 'new',
    path: '/new',
    access: 'login',
    title: 'pages.new',
    screen: () => <ComposePage />,
    nav: { label: 'nav.new', prefix: '/new', primary: true },
  },
  ...mailFolder('inbox', 'pages.inbox', { label: 'nav.inbox', prefix: '/inbox', counts: 'received' }),
  ...mailFolder('sent', 'pages.sent', { label: 'nav.sent', prefix: '/sent', counts: 'sent' }),
  {
    name: 'sent-reception',
    path: '/sent/message/:id/reception',
    access: 'login',
    title: 'pages.reception',
    screen: (params) => {
      const id = idOf(params);
      return id === null ? <NotFound /> : <ReceptionPage key={id} id={id} />;
    },
  },
  ...mailFolder('scheduled', 'pages.scheduled', { label: 'nav.scheduled', prefix: '/scheduled', counts: 'scheduled' }),
  ...mailFolder('draft', 'pages.draft', { label: 'nav.draft', prefix: '/draft', counts: 'draft' }),
  ...mailFolder('trash', 'pages.trash', { label: 'nav.trash', prefix: '/trash' }),
  {
    name: 'recipient-lists',
    path: '/recipient-lists',
    access: 'login',
    title: 'pages.recipientLists',
    screen: () => <RecipientListsPage />,
    nav: { label: 'nav.recipientLists', prefix: '/recipient-list' },
  },
  { name: 'recipient-lists-trash', path: '/recipient-lists/trash', access: 'login', title: 'pages.recipientListsTrash', screen: () => <RecipientListsTrashPage /> },
  {
    name: 'recipient-list',
    path: '/recipient-list/:id?',
    access: 'login',
    title: 'pages.recipientList',
    // Without an id, the lists themselves; a malformed id is the 404 page, like another user's list.
    screen: (params) => {
      if (!params.id) return <RecipientListsPage />;
      const id = idOf(params);
      return id === null ? <NotFound /> : <RecipientListPage key={id} id={id} />;
    },
  },
  {
    name: 'templates',
    path: '/templates',
    access: 'login',
    title: 'pages.templates',
    screen: () => <TemplatesPage />,
    nav: { label: 'nav.templates', prefix: '/templates' },
  },
  {
    name: 'dashboard',
    path: '/dashboard',
    access: 'login',
    roles: ADMIN_ROLES,
    redirect: '/dashboard/connectivity',
    title: 'pages.dashboard',
    screen: () => null,
    nav: { label: 'nav.dashboard', prefix: '/dashboard' },
  },
  {
    name: 'dashboard-connectivity',
    path: '/dashboard/connectivity',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.dashboardConnectivity',
    screen: () => <DashboardConnectivityPage />,
  },
  { name: 'dashboard-users', path: '/dashboard/users', access: 'login', roles: ADMIN_ROLES, title: 'pages.dashboardUsers', screen: () => <DashboardUsersPage /> },
  {
    name: 'connectivity-course',
    path: '/connectivity/course/:id?',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.connectivityCourse',
    // Without an id, the dashboard's table of courses; a malformed id is the 404 page.
    screen: (params) => {
      if (!params.id) return <DashboardConnectivityPage />;
      const id = idOf(params);
      return id === null ? <NotFound /> : <ConnectivityCoursePage key={id} id={id} />;
    },
  },
  {
    name: 'connectivity-call-list',
    path: '/connectivity/course/:id/call-list',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.callList',
    screen: (params) => {
      const id = idOf(params);
      return id === null ? <NotFound /> : <CallListPrintPage key={id} id={id} />;
    },
  },
  { name: 'ranking-courses', path: '/ranking/courses', access: 'login', roles: ADMIN_ROLES, title: 'pages.rankingCourses', screen: () => <RankingPage key="courses" kind="courses" /> },
  { name: 'ranking-users', path: '/ranking/users', access: 'login', roles: ADMIN_ROLES, title: 'pages.rankingUsers', screen: () => <RankingPage key="users" kind="users" /> },
  {
    name: 'mural',
    path: '/mural',
    access: 'login',
    device: 'latam',
    browse: { roles: NEWSFEED_ROLES, query: 'newsfeed', otherwise: '/mural/news' },
    title: 'pages.newsDesk',
    screen: () => <NewsDeskPage />,
  },
  {
    name: 'mural-categories',
    path: '/mural/categories',
    access: 'login',
    device: 'latam',
    roles: NEWSFEED_ROLES,
    title: 'pages.newsCategories',
    screen: () => <NewsCategoriesPage />,
  },
  {
    name: 'mural-news',
    path: '/mural/news',
    access: 'login',
    device: 'latam',
    title: 'pages.newsWall',
    screen: () => <NewsWallPage />,
    nav: { label: 'nav.news', prefix: '/mural' },
  },
  { name: 'mural-trash', path: '/mural/trash', access: 'login', device: 'latam', roles: NEWSFEED_ROLES, title: 'pages.newsTrash', screen: () => <NewsTrashPage /> },
  // The printable weekly wall (issue 17): any latam staff user, like the wall itself.
  { name: 'mural-news-week', path: '/mural/news/week', access: 'login', device: 'latam', title: 'pages.newsWeek', screen: () => <NewsWeekPage /> },
  {
    name: 'mural-news-compose',
    path: '/mural/news/compose',
    access: 'login',
    device: 'latam',
    roles: NEWSFEED_ROLES,
    title: 'pages.newsCompose',
    screen: () => <NewsComposePage />,
  },
  {
    name: 'settings',
    path: '/settings',
    access: 'login',
    roles: ADMIN_ROLES,
    redirect: '/settings/message-quota',
    title: 'pages.settings',
    screen: () => null,
  },
  {
    name: 'settings-message-quota',
    path: '/settings/message-quota',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.settingsQuota',
    screen: () => <SettingsQuotaPage />,
    nav: { label: 'nav.settings', prefix: '/settings' },
  },
  {
    name: 'settings-message-signature',
    path: '/settings/message-signature',
    access: 'login',
    roles: ADMIN_ROLES,
    title: 'pages.settingsSignature',
    screen: () => <SettingsSignaturePage />,
  },
] as const satisfies readonly RouteDef[];

export type RouteName = (typeof ROUTES)[number]['name'];

/** What the route guard needs of the table. */
export const ROUTE_RULES: readonly RouteRule[] = (ROUTES as readonly RouteDef[]).map(({ screen: _screen, title: _title, nav: _nav, ...rule }) => rule);

/** The sidebar's entries, in table order. */
export const NAV_ROUTES = (ROUTES as readonly RouteDef[]).filter((route): route is RouteDef & { nav: NavEntry } => route.nav !== undefined);

export const routeNamed = (name: string | null): RouteDef | undefined => (ROUTES as readonly RouteDef[]).find((route) => route.name === name);
