// The phone pass (tests/e2e/phone.spec.ts) visits every route of the table, and every screen has its own
// tab title: a route added without joining the pass, or a title shared by two screens, fails here.
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/views/routes';
import { SCREENS } from '../e2e/support/screens';

describe('screens of the phone pass', () => {
  it('names every route of the route table, once', () => {
    expect(SCREENS.map((screen) => screen.route).sort()).toEqual(ROUTES.map((route) => route.name).sort());
  });

  it('titles each visit after the screen it lands on, as the table says', () => {
    for (const visit of SCREENS) {
      const landsOn =
        ROUTES.find((route) => route.path === (visit.landsOn ?? visit.path)) ?? ROUTES.find((route) => route.name === visit.route);
      expect(landsOn?.title, visit.route).toBe(visit.title);
    }
  });

  it('gives every screen its own title (a message keeps one for every folder)', () => {
    const shown = ROUTES.filter((route) => !('redirect' in route) && !route.name.endsWith('-message'));
    const titles = shown.map((route) => route.title);
    expect(new Set(titles).size).toBe(titles.length);
  });
});
