// Every route of SPEC §2 with its access rules. Read by the route-guard machine and by the router view.
import { ADMIN_ROLES, NEWSFEED_ROLES, type RoleCode } from '../../shared/codes';

export type RouteAccess = 'login' | 'guest';

export type RouteName =
  | 'index'
  | 'login'
  | 'new'
  | 'inbox'
  | 'inbox-message'
  | 'sent'
  | 'sent-message'
  | 'sent-reception'
  | 'scheduled'
  | 'scheduled-message'
  | 'draft'
  | 'draft-message'
  | 'trash'
  | 'trash-message'
  | 'templates'
  | 'recipient-lists'
  | 'recipient-lists-trash'
  | 'recipient-list'
  | 'dashboard'
  | 'dashboard-connectivity'
  | 'dashboard-users'
  | 'connectivity-course'
  | 'ranking-courses'
  | 'ranking-users'
  | 'mural'
  | 'mural-categories'
  | 'mural-news'
  | 'mural-trash'
  | 'mural-news-compose'
  | 'settings'
  | 'settings-message-quota'
  | 'settings-message-signature';

export interface RouteDef {
  name: RouteName;
  /** wouter pattern; a trailing slash also matches (`/inbox/`). */
  path: string;
  access: RouteAccess;
  /** When set, a user with none of these roles is sent to `/` (SPEC §2). */
  roles?: readonly RoleCode[];
  /** When set, the user's device must match (the news wall is for `latam`). */
  device?: string;
  /** Where this route sends the user right away, once access is granted. */
  redirect?: string;
}

export const ROUTES: readonly RouteDef[] = [
  { name: 'index', path: '/', access: 'login', redirect: '/inbox' },
  { name: 'login', path: '/login', access: 'guest' },
  { name: 'new', path: '/new', access: 'login' },
  { name: 'inbox', path: '/inbox', access: 'login' },
  { name: 'inbox-message', path: '/inbox/message/:id?', access: 'login' },
  { name: 'sent', path: '/sent', access: 'login' },
  { name: 'sent-message', path: '/sent/message/:id?', access: 'login' },
  { name: 'sent-reception', path: '/sent/message/:id/reception', access: 'login' },
  { name: 'scheduled', path: '/scheduled', access: 'login' },
  { name: 'scheduled-message', path: '/scheduled/message/:id?', access: 'login' },
  { name: 'draft', path: '/draft', access: 'login' },
  { name: 'draft-message', path: '/draft/message/:id?', access: 'login' },
  { name: 'trash', path: '/trash', access: 'login' },
  { name: 'trash-message', path: '/trash/message/:id?', access: 'login' },
  { name: 'templates', path: '/templates', access: 'login' },
  { name: 'recipient-lists', path: '/recipient-lists', access: 'login' },
  { name: 'recipient-lists-trash', path: '/recipient-lists/trash', access: 'login' },
  { name: 'recipient-list', path: '/recipient-list/:id?', access: 'login' },
  { name: 'dashboard', path: '/dashboard', access: 'login', roles: ADMIN_ROLES, redirect: '/dashboard/connectivity' },
  { name: 'dashboard-connectivity', path: '/dashboard/connectivity', access: 'login', roles: ADMIN_ROLES },
  { name: 'dashboard-users', path: '/dashboard/users', access: 'login', roles: ADMIN_ROLES },
  { name: 'connectivity-course', path: '/connectivity/course/:id?', access: 'login', roles: ADMIN_ROLES },
  { name: 'ranking-courses', path: '/ranking/courses', access: 'login', roles: ADMIN_ROLES },
  { name: 'ranking-users', path: '/ranking/users', access: 'login', roles: ADMIN_ROLES },
  { name: 'mural', path: '/mural', access: 'login', device: 'latam' },
  { name: 'mural-categories', path: '/mural/categories', access: 'login', device: 'latam', roles: NEWSFEED_ROLES },
  { name: 'mural-news', path: '/mural/news', access: 'login', device: 'latam' },
  { name: 'mural-trash', path: '/mural/trash', access: 'login', device: 'latam', roles: NEWSFEED_ROLES },
  { name: 'mural-news-compose', path: '/mural/news/compose', access: 'login', device: 'latam', roles: NEWSFEED_ROLES },
  { name: 'settings', path: '/settings', access: 'login', roles: ADMIN_ROLES, redirect: '/settings/message-quota' },
  { name: 'settings-message-quota', path: '/settings/message-quota', access: 'login', roles: ADMIN_ROLES },
  { name: 'settings-message-signature', path: '/settings/message-signature', access: 'login', roles: ADMIN_ROLES },
];
