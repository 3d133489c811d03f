import { describe, expect, it } from 'vitest';
import {
  decideRoute as decideWith,
  matchRoute as matchWith,
  mayEnter,
  type Location,
  type SessionSummary,
} from '../../src/machines/app/route-rules';
import { ROUTE_RULES } from '../../src/views/route-table';

const matchRoute = (path: string) => matchWith(ROUTE_RULES, path);
const decideRoute = (location: Location | null, session: SessionSummary) => decideWith(ROUTE_RULES, location, session);

describe('matchRoute', () => {
  it.each([
    ['/', 'index', {}],
    ['/login', 'login', {}],
    ['/inbox', 'inbox', {}],
    ['/inbox/', 'inbox', {}],
    ['/inbox/message', 'inbox-message', {}],
    ['/inbox/message/42', 'inbox-message', { id: '42' }],
    ['/inbox/message/42/', 'inbox-message', { id: '42' }],
    ['/draft/message/a%20b', 'draft-message', { id: 'a b' }],
    ['/recipient-lists/trash', 'recipient-lists-trash', {}],
    ['/recipient-list/9', 'recipient-list', { id: '9' }],
    ['/mural/news/compose', 'mural-news-compose', {}],
    ['/mural/news/week?date=2026-03-02', 'mural-news-week', {}],
    ['/settings/message-signature', 'settings-message-signature', {}],
    ['/settings/staff', 'settings-staff', {}],
    ['/invitation/Ab-9_x', 'invitation', { token: 'Ab-9_x' }],
    ['/inbox?page=2', 'inbox', {}],
    ['/sent#top', 'sent', {}],
  ])('%s → %s', (path, name, params) => {
    const match = matchRoute(path);
    expect(match?.route.name).toBe(name);
    expect(match?.params).toEqual(params);
  });

  it.each(['/nope', '/inbox/message/42/extra', '/inboxes', '/draft/message/%E0%A4%A', 'inbox', ''])('%j is unknown', (path) => {
    expect(matchRoute(path)).toBeNull();
  });
});

const out: SessionSummary = { status: 'loggedOut', roles: [], device: null };
const expired: SessionSummary = { status: 'expired', roles: [], device: null };
const checking: SessionSummary = { status: 'checking', roles: [], device: null };
const teacher: SessionSummary = { status: 'loggedIn', roles: ['docente'], device: 'cl' };
const teacherLatam: SessionSummary = { status: 'loggedIn', roles: ['docente'], device: 'latam' };
const admin: SessionSummary = { status: 'loggedIn', roles: ['colegio-administrador'], device: 'latam' };
const director: SessionSummary = { status: 'loggedIn', roles: ['colegio-director'], device: 'latam' };
const corpUtp: SessionSummary = { status: 'loggedIn', roles: ['corp-utp'], device: 'latam' };
const utpCl: SessionSummary = { status: 'loggedIn', roles: ['colegio-utp'], device: 'cl' };

const at = (path: string, search = '') => ({ path, search });

describe('decideRoute (SPEC §2, §6)', () => {
  it('waits for a location and for the session check', () => {
    expect(decideRoute(null, teacher)).toEqual({ kind: 'wait' });
    expect(decideRoute(at('/inbox'), checking)).toEqual({ kind: 'wait' });
    expect(decideRoute(at('/login'), checking)).toEqual({ kind: 'wait' });
  });

  it('shows the 404 for unknown paths whatever the session', () => {
    for (const session of [checking, out, teacher]) {
      expect(decideRoute(at('/nope'), session)).toEqual({ kind: 'allow', route: null, params: {} });
    }
  });

  it('matches paths case-insensitively like the router, so a capital letter skips no rule', () => {
    expect(decideRoute(at('/Dashboard/Users'), teacher)).toEqual({ kind: 'denied', to: '/' });
    expect(decideRoute(at('/Inbox'), out)).toMatchObject({ kind: 'login' });
    expect(decideRoute(at('/INBOX'), teacher)).toMatchObject({ kind: 'allow', route: 'inbox' });
  });

  it("lets only the school's administrators into the staff screen; the invitation page is for visitors", () => {
    expect(decideRoute(at('/settings/staff'), admin)).toEqual({ kind: 'allow', route: 'settings-staff', params: {} });
    for (const session of [director, corpUtp, utpCl, teacher])
      expect(decideRoute(at('/settings/staff'), session)).toEqual({ kind: 'denied', to: '/' });
    expect(decideRoute(at('/invitation/abc'), out)).toMatchObject({ kind: 'guest', route: 'invitation', params: { token: 'abc' } });
    expect(decideRoute(at('/invitation/abc'), admin)).toEqual({ kind: 'redirect', to: '/' });
  });

  it("lets only the school's administrators into the roster import, as into its staff screen", () => {
    expect(decideRoute(at('/settings/roster'), admin)).toEqual({ kind: 'allow', route: 'settings-roster', params: {} });
    for (const session of [director, corpUtp, utpCl, teacher])
      expect(decideRoute(at('/settings/roster'), session)).toEqual({ kind: 'denied', to: '/' });
    expect(decideRoute(at('/settings/roster'), out)).toMatchObject({ kind: 'login' });
  });

  it("lets the school's leadership into the people screens, a teacher nowhere near them", () => {
    for (const session of [admin, director, corpUtp, utpCl]) {
      expect(decideRoute(at('/settings/people'), session)).toEqual({ kind: 'allow', route: 'settings-people', params: {} });
      expect(decideRoute(at('/settings/people/apoderado/21'), session)).toEqual({
        kind: 'allow',
        route: 'settings-person',
        params: { kind: 'apoderado', id: '21' },
      });
    }
    for (const session of [teacher, teacherLatam]) {
      expect(decideRoute(at('/settings/people'), session)).toEqual({ kind: 'denied', to: '/' });
      expect(decideRoute(at('/settings/people/estudiante/7'), session)).toEqual({ kind: 'denied', to: '/' });
    }
    expect(decideRoute(at('/settings/people'), out)).toMatchObject({ kind: 'login' });
  });

  it('sends visitors to login, remembering the page with its query', () => {
    expect(decideRoute(at('/inbox/message/42', '?x=1'), out)).toEqual({
      kind: 'login',
      to: '/login?redirect=%2Finbox%2Fmessage%2F42%3Fx%3D1',
      remember: '/inbox/message/42?x=1',
    });
    expect(decideRoute(at('/sent'), expired)).toMatchObject({ kind: 'login', to: '/login?redirect=%2Fsent' });
    expect(decideRoute(at('/'), out)).toEqual({ kind: 'login', to: '/login', remember: '/' });
  });

  it('lets visitors see the login page and passes on its redirect query', () => {
    expect(decideRoute(at('/login', '?redirect=%2Fsent'), out)).toEqual({ kind: 'guest', route: 'login', params: {}, remember: '/sent' });
    expect(decideRoute(at('/login'), expired)).toEqual({ kind: 'guest', route: 'login', params: {}, remember: null });
    // The session validates it; the guard passes it on as given.
    expect(decideRoute(at('/login', '?redirect=//evil.example'), out)).toMatchObject({ remember: '//evil.example' });
  });

  it('sends signed-in users away from guest pages, home', () => {
    expect(decideRoute(at('/login', '?redirect=%2Fsent'), teacher)).toEqual({ kind: 'redirect', to: '/' });
  });

  it('applies route redirects once access is granted', () => {
    expect(decideRoute(at('/'), teacher)).toEqual({ kind: 'redirect', to: '/inbox' });
    expect(decideRoute(at('/dashboard'), admin)).toEqual({ kind: 'redirect', to: '/dashboard/connectivity' });
    expect(decideRoute(at('/settings'), corpUtp)).toEqual({ kind: 'redirect', to: '/settings/message-quota' });
    // …but not before: a teacher is refused /settings, not redirected inside it.
    expect(decideRoute(at('/settings'), teacher)).toEqual({ kind: 'denied', to: '/' });
  });

  it('sends users without an allowed role home, as denied (they are told)', () => {
    expect(decideRoute(at('/dashboard/users'), teacher)).toEqual({ kind: 'denied', to: '/' });
    expect(decideRoute(at('/ranking/courses'), teacherLatam)).toEqual({ kind: 'denied', to: '/' });
    expect(decideRoute(at('/dashboard/users'), corpUtp)).toEqual({ kind: 'allow', route: 'dashboard-users', params: {} });
    expect(decideRoute(at('/connectivity/course/3'), admin)).toEqual({ kind: 'allow', route: 'connectivity-course', params: { id: '3' } });
  });

  it('keeps the news wall to latam devices', () => {
    expect(decideRoute(at('/mural/news'), teacher)).toEqual({ kind: 'denied', to: '/' });
    expect(decideRoute(at('/mural'), utpCl)).toEqual({ kind: 'denied', to: '/' });
    expect(decideRoute(at('/mural/news'), teacherLatam)).toEqual({ kind: 'allow', route: 'mural-news', params: {} });
    // The printable week is the wall's: any latam staff user, no role needed.
    expect(decideRoute(at('/mural/news/week'), teacherLatam)).toEqual({ kind: 'allow', route: 'mural-news-week', params: {} });
    expect(decideRoute(at('/mural/news/week'), teacher)).toEqual({ kind: 'denied', to: '/' });
  });

  it('applies the newsfeed rule on /mural', () => {
    expect(decideRoute(at('/mural'), teacherLatam)).toEqual({ kind: 'redirect', to: '/mural/news' });
    expect(decideRoute(at('/mural'), corpUtp)).toEqual({ kind: 'redirect', to: '/mural/news' });
    expect(decideRoute(at('/mural', '?newsfeed='), teacherLatam)).toEqual({ kind: 'redirect', to: '/mural/news' });
    expect(decideRoute(at('/mural', '?newsfeed=5'), teacherLatam)).toEqual({ kind: 'allow', route: 'mural', params: {} });
    expect(decideRoute(at('/mural'), admin)).toEqual({ kind: 'allow', route: 'mural', params: {} });
    expect(decideRoute(at('/mural'), director)).toEqual({ kind: 'allow', route: 'mural', params: {} });
  });

  it('keeps the news wall management to its roles', () => {
    expect(decideRoute(at('/mural/news/compose'), teacherLatam)).toEqual({ kind: 'denied', to: '/' });
    expect(decideRoute(at('/mural/categories'), corpUtp)).toEqual({ kind: 'denied', to: '/' });
    expect(decideRoute(at('/mural/trash'), director)).toEqual({ kind: 'allow', route: 'mural-trash', params: {} });
  });
});

describe('mayEnter (what the sidebar offers)', () => {
  const rule = (name: string) => ROUTE_RULES.find((route) => route.name === name) as (typeof ROUTE_RULES)[number];

  it('offers the admin screens to the admin roles only', () => {
    for (const name of ['dashboard', 'settings-message-quota', 'ranking-users']) {
      expect(mayEnter(rule(name), admin), name).toBe(true);
      expect(mayEnter(rule(name), corpUtp), name).toBe(true);
      expect(mayEnter(rule(name), teacher), name).toBe(false);
      expect(mayEnter(rule(name), teacherLatam), name).toBe(false);
    }
  });

  it('offers the news wall on device latam, its management to administrador, directora and UTP', () => {
    expect(mayEnter(rule('mural-news'), teacherLatam)).toBe(true);
    expect(mayEnter(rule('mural-news'), teacher)).toBe(false);
    expect(mayEnter(rule('mural-news'), utpCl)).toBe(false);
    expect(mayEnter(rule('mural-news-compose'), director)).toBe(true);
    expect(mayEnter(rule('mural-news-compose'), corpUtp)).toBe(false);
    expect(mayEnter(rule('mural-news-compose'), teacherLatam)).toBe(false);
  });

  it('offers the mail folders, compose, templates and lists to everyone signed in', () => {
    for (const name of ['new', 'inbox', 'sent', 'scheduled', 'draft', 'trash', 'templates', 'recipient-lists']) {
      expect(mayEnter(rule(name), teacher), name).toBe(true);
    }
  });
});
