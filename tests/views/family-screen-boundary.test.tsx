// A lazy screen of the families' app that cannot be loaded (lazy-screen.ts, screen-boundary.tsx): offline,
// «Sin conexión…» in the screen's place, no reload; a second failure online, «No pudimos abrir esta
// pantalla»; «Reintentar» (or the signal coming back) asks for the chunk again and shows the screen. The
// rest of the app stays.
import { Suspense } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import familyCL from '../../src/i18n/family/es-CL.json' with { type: 'json' };
import { familySessionMachine } from '../../src/machines/family/session';
import { SessionContext } from '../../src/views/family/family-context';
import { lazyScreen } from '../../src/views/family/lazy-screen';
import { ScreenBoundary } from '../../src/views/family/screen-boundary';

const tx = familyCL.family;
let online = true;

beforeEach(() => {
  online = true;
  sessionStorage.clear();
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
  // React reports the caught failure on the console; the test looks at the screen instead.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

function Mensaje({ title }: { title: string }) {
  return <h1>{title}</h1>;
}

/** A screen whose chunk fails while `failing` says so. */
function flakyScreen() {
  const state = { failing: true, loads: 0 };
  const Screen = lazyScreen(async () => {
    state.loads += 1;
    if (state.failing) throw new TypeError('Failed to fetch dynamically imported module');
    return Mensaje;
  });
  return { state, Screen };
}

function show(Screen: ReturnType<typeof flakyScreen>['Screen']) {
  const session = createActor(familySessionMachine, { input: { preferredLocale: 'es-CL' } }).start();
  render(
    <SessionContext.Provider value={session}>
      <header>Hermes Familias</header>
      <ScreenBoundary>
        <Suspense fallback={<p>Cargando…</p>}>
          <Screen title="Reunión de apoderados" />
        </Suspense>
      </ScreenBoundary>
    </SessionContext.Provider>,
  );
}

describe("a screen of the families' app that cannot be loaded", () => {
  it('says «Sin conexión» offline without reloading, and opens it on «Reintentar»', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    online = false;
    const { state, Screen } = flakyScreen();
    show(Screen);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(tx.screen.offline);
    expect(screen.getByText('Hermes Familias')).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    online = true;
    state.failing = false;
    const loadsBefore = state.loads;
    fireEvent.click(screen.getByRole('button', { name: tx.screen.retry }));
    expect(await screen.findByRole('heading', { name: 'Reunión de apoderados' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    // Asked for again, not React's first failure kept for good.
    expect(state.loads).toBeGreaterThan(loadsBefore);
    vi.unstubAllGlobals();
  });

  it('says it could not open the screen on a second failure online, and retries when the signal comes back', async () => {
    // The page already reloaded for this a moment ago.
    sessionStorage.setItem('hermes.familia.recargada', String(Date.now()));
    const { state, Screen } = flakyScreen();
    show(Screen);
    expect((await screen.findByRole('alert')).textContent).toContain(tx.screen.error);
    state.failing = false;
    window.dispatchEvent(new Event('online'));
    expect(await screen.findByRole('heading', { name: 'Reunión de apoderados' })).toBeTruthy();
  });
});
