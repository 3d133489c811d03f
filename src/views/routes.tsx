// What each route of the table (route-table.ts) shows: its screen, from the route's params (`:id`), each page
// a lazy chunk loaded with its texts. The router renders `screen`; the table's paths, access rules, titles and
// sidebar entries live apart so nothing that a page imports leads back here. Only the first screens (the
// login form, the folders and their messages, the 404) are named here, in the first download; the others'
// rows are their own chunk (other-screens.tsx), asked for at start-up beside the first screen's.
import { lazy, type ReactNode } from 'react';
import type { Folder } from '../../shared/codes';
import { idOf, screen, useIsScreenLoading, type RouteParams } from './lazy-screen';
import type { OtherScreenName } from './other-screens';
import { ROUTE_TABLE, type RouteEntry, type RouteName } from './route-table';

export interface RouteDef extends RouteEntry {
  /** What the route shows, from its params (`:id`). */
  screen: (params: RouteParams) => ReactNode;
}

const LoginPage = screen(() => import('./pages/session/login-page').then((m) => m.LoginPage), ['session']);
const FolderPage = screen(() => import('./pages/messages/folder-page').then((m) => m.FolderPage), ['messages']);
const MessagePage = screen(() => import('./pages/messages/message-page').then((m) => m.MessagePage), ['messages', 'reception']);

/** The screen most sign-ins land on (`/` goes to the inbox): what the login page loads while the user types. */
export const preloadLanding = (): void => FolderPage.preload();

/** The other screens' chunk, once; a failed load is asked again by the next screen that needs it. */
let others: Promise<typeof import('./other-screens')> | null = null;
function otherScreens() {
  others ??= import('./other-screens').catch((error: unknown) => {
    others = null;
    throw error;
  });
  return others;
}
// Start-up: it loads while the session is checked and the first screen's chunk arrives.
otherScreens().catch(() => undefined);
// Start-up too: the login form with its texts (its chunk is already on its way, first-screen.ts).
LoginPage.preload();

/** Whether the login form's load, started with the app, is still under way: /login keeps the splash meanwhile. */
export const useIsLoginLoading = (): boolean => useIsScreenLoading(LoginPage);

const OtherScreen = lazy(() => otherScreens().then((m) => ({ default: m.OtherScreen })));

/** A route whose screen is in the other screens' chunk. */
const other = (name: OtherScreenName) => (params: RouteParams) => <OtherScreen name={name} params={params} />;

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
  'forgot-password': other('forgot-password'),
  'reset-password': other('reset-password'),
  setup: other('setup'),
  new: other('new'),
  inbox: () => <FolderPage folder="inbox" />,
  'inbox-message': messageOr('inbox'),
  sent: () => <FolderPage folder="sent" />,
  'sent-message': messageOr('sent'),
  'sent-reception': other('sent-reception'),
  scheduled: () => <FolderPage folder="scheduled" />,
  'scheduled-message': messageOr('scheduled'),
  draft: () => <FolderPage folder="draft" />,
  'draft-message': messageOr('draft'),
  trash: () => <FolderPage folder="trash" />,
  'trash-message': messageOr('trash'),
  'recipient-lists': other('recipient-lists'),
  'recipient-lists-trash': other('recipient-lists-trash'),
  'recipient-list': other('recipient-list'),
  templates: other('templates'),
  dashboard: () => null,
  'dashboard-connectivity': other('dashboard-connectivity'),
  'dashboard-users': other('dashboard-users'),
  'connectivity-course': other('connectivity-course'),
  'connectivity-call-list': other('connectivity-call-list'),
  'ranking-courses': other('ranking-courses'),
  'ranking-users': other('ranking-users'),
  mural: other('mural'),
  'mural-categories': other('mural-categories'),
  'mural-news': other('mural-news'),
  'mural-trash': other('mural-trash'),
  'mural-news-week': other('mural-news-week'),
  'mural-news-compose': other('mural-news-compose'),
  settings: () => null,
  'settings-message-quota': other('settings-message-quota'),
  'settings-message-signature': other('settings-message-signature'),
  'settings-school': other('settings-school'),
  'settings-staff': other('settings-staff'),
  invitation: other('invitation'),
  'settings-sso': other('settings-sso'),
  'settings-retention': other('settings-retention'),
  'settings-roster': other('settings-roster'),
  'settings-people': other('settings-people'),
  'settings-person': other('settings-person'),
  audit: other('audit'),
  privacy: other('privacy'),
  'privacy-person': other('privacy-person'),
} satisfies Record<RouteName, RouteDef['screen']>;

/** The table's routes with their screens, in table order. */
export const ROUTES = ROUTE_TABLE.map((route) => ({ ...route, screen: SCREENS[route.name] }));

export const routeNamed = (name: string | null): RouteDef | undefined =>
  (ROUTES as readonly RouteDef[]).find((route) => route.name === name);
