// What each route of the table (route-table.ts) shows: its screen, from the route's params (`:id`), each page
// a lazy chunk loaded with its texts. The router renders `screen`; the table's paths, access rules, titles and
// sidebar entries live apart so nothing that a page imports leads back here.
import { lazy, type ComponentType, type ReactNode } from 'react';
import type { Folder } from '../../shared/codes';
import { loadTexts, type Namespace } from '../i18n';
import { ROUTE_TABLE, type RouteEntry, type RouteName } from './route-table';

type RouteParams = Record<string, string | undefined>;

export interface RouteDef extends RouteEntry {
  /** What the route shows, from its params (`:id`). */
  screen: (params: RouteParams) => ReactNode;
}

/**
 * A screen's chunk and its texts, loaded together; the route shows the shell's splash meanwhile. `preload`
 * starts that load ahead of the visit (once: the visit then uses the same download).
 */
function screen<P extends object>(load: () => Promise<ComponentType<P>>, texts: readonly Namespace[] = []) {
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const start = () => {
    loading ??= Promise.all([load(), loadTexts(texts)]).then(([component]) => ({ default: component }));
    return loading;
  };
  // A preload that failed (offline a moment) is forgotten, so the visit tries again.
  const preload = () => void start().catch(() => (loading = null));
  return Object.assign(lazy(start), { preload });
}

const LoginPage = screen(() => import('./pages/session/login-page').then((m) => m.LoginPage), ['session']);
const ComposePage = screen(() => import('./pages/compose/compose-page').then((m) => m.ComposePage), ['messages', 'compose', 'templates']);
const TemplatesPage = screen(() => import('./pages/templates/templates-page').then((m) => m.TemplatesPage), ['templates']);
const FolderPage = screen(() => import('./pages/messages/folder-page').then((m) => m.FolderPage), ['messages']);
const MessagePage = screen(() => import('./pages/messages/message-page').then((m) => m.MessagePage), ['messages', 'reception']);
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
const SettingsQuotaPage = screen(() => import('./pages/settings/quota-page').then((m) => m.SettingsQuotaPage), ['settings']);
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
const ErrorPage = screen(() => import('./pages/app/error-page').then((m) => m.ErrorPage));
const NewsComposePage = screen(() => import('./pages/news/compose-page').then((m) => m.NewsComposePage), ['compose', 'news/compose']);

/** A path id: digits only (anything else is the 404 page, like an id that is not the user's). */
const idOf = (params: RouteParams): number | null => (params.id && /^\d{1,12}$/.test(params.id) ? Number(params.id) : null);

/** The screen most sign-ins land on (`/` goes to the inbox): what the login page loads while the user types. */
export const preloadLanding = (): void => FolderPage.preload();

/** The 404 page: unknown paths, and known ones with a malformed id. */
export const NotFound = () => <ErrorPage code={404} />;

/** A screen of one record (`/…/:id`, a new visit per id): a malformed id is the 404 page; without one, `bare`. */
function byId(Screen: ComponentType<{ id: number }>, bare?: () => ReactNode) {
  return (params: RouteParams) => {
    if (bare && !params.id) return bare();
    const id = idOf(params);
    return id === null ? <NotFound /> : <Screen key={id} id={id} />;
  };
}

/** `/<folder>/message/:id`: the reading view; without an id, the folder itself. */
function messageOr(folder: Folder) {
  return (params: RouteParams) => {
    const id = idOf(params);
    return id === null ? <FolderPage folder={folder} /> : <MessagePage key={id} folder={folder} id={id} />;
  };
}

/** Every route's screen, by the route's name: a route of the table without one fails the type check. */
const SCREENS = {
  index: () => null,
  login: () => <LoginPage />,
  new: () => <ComposePage />,
  inbox: () => <FolderPage folder="inbox" />,
  'inbox-message': messageOr('inbox'),
  sent: () => <FolderPage folder="sent" />,
  'sent-message': messageOr('sent'),
  'sent-reception': byId(ReceptionPage),
  scheduled: () => <FolderPage folder="scheduled" />,
  'scheduled-message': messageOr('scheduled'),
  draft: () => <FolderPage folder="draft" />,
  'draft-message': messageOr('draft'),
  trash: () => <FolderPage folder="trash" />,
  'trash-message': messageOr('trash'),
  'recipient-lists': () => <RecipientListsPage />,
  'recipient-lists-trash': () => <RecipientListsTrashPage />,
  // Without an id, the lists themselves; a malformed id is the 404 page, like another user's list.
  'recipient-list': byId(RecipientListPage, () => <RecipientListsPage />),
  templates: () => <TemplatesPage />,
  dashboard: () => null,
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
  settings: () => null,
  'settings-message-quota': () => <SettingsQuotaPage />,
  'settings-message-signature': () => <SettingsSignaturePage />,
} satisfies Record<RouteName, RouteDef['screen']>;

/** The table's routes with their screens, in table order. */
export const ROUTES = ROUTE_TABLE.map((route) => ({ ...route, screen: SCREENS[route.name] }));

export const routeNamed = (name: string | null): RouteDef | undefined =>
  (ROUTES as readonly RouteDef[]).find((route) => route.name === name);
