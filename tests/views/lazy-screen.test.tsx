// A screen is a lazy chunk loaded with its texts (src/views/lazy-screen.tsx). One whose chunk has already
// arrived (preloaded at start-up, as the login form is) must show at once: through React's `lazy` it would
// suspend once anyway, show the splash, and React then holds the screen back until 300 ms after the splash.
import { StrictMode, Suspense, useState } from 'react';
import { act, cleanup, fireEvent, render, screen as dom } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { screen, useIsScreenLoading } from '../../src/views/lazy-screen';

afterEach(cleanup);

/** Lets the pending promises (the chunk's import, its texts) settle. */
const arrived = () => new Promise((resolve) => setTimeout(resolve, 0));

function Counter({ label }: { label: string }) {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      {`${label} ${count}`}
    </button>
  );
}

const fallbacks: string[] = [];
function Splash() {
  fallbacks.push('splash');
  return <p>Cargando…</p>;
}

let arrive: (component: typeof Counter) => void = () => undefined;
const Later = screen(() => new Promise<typeof Counter>((resolve) => (arrive = resolve)));

function Host() {
  const [label, setLabel] = useState('Pantalla');
  return (
    <>
      <button type="button" onClick={() => setLabel('Otra')}>
        Cambiar
      </button>
      <Suspense fallback={<p>Cargando…</p>}>
        <Later label={label} />
      </Suspense>
    </>
  );
}

let arriveFirst: (component: typeof Counter) => void = () => undefined;
const First = screen(() => new Promise<typeof Counter>((resolve) => (arriveFirst = resolve)));

/** A route that keeps its own splash while its screen's preload is under way (as /login does). */
function FirstRoute() {
  if (useIsScreenLoading(First)) return <p>Comprobando…</p>;
  return (
    <Suspense fallback={<Splash />}>
      <First label="Formulario" />
    </Suspense>
  );
}

describe('screen', () => {
  it('shows a screen whose chunk has arrived at once, never its fallback', async () => {
    const Page = screen(async () => Counter);
    Page.preload();
    await arrived();
    render(
      <StrictMode>
        <Suspense fallback={<Splash />}>
          <Page label="Pantalla" />
        </Suspense>
      </StrictMode>,
    );
    expect(dom.getByRole('button', { name: 'Pantalla 0' })).toBeTruthy();
    expect(fallbacks).toEqual([]);
  });

  it('says its preload is under way until it arrives, so a route can show it with no fallback at all', async () => {
    First.preload();
    fallbacks.length = 0;
    render(<FirstRoute />);
    expect(dom.getByText('Comprobando…')).toBeTruthy();
    await act(async () => {
      arriveFirst(Counter);
      await arrived();
    });
    expect(dom.getByRole('button', { name: 'Formulario 0' })).toBeTruthy();
    expect(fallbacks).toEqual([]);
  });

  it('shows the fallback until a chunk not yet arrived does, then keeps the screen across renders', async () => {
    render(<Host />);
    expect(dom.getByText('Cargando…')).toBeTruthy();
    await act(async () => {
      arrive(Counter);
      await arrived();
    });
    fireEvent.click(dom.getByRole('button', { name: 'Pantalla 0' }));
    expect(dom.getByRole('button', { name: 'Pantalla 1' })).toBeTruthy();
    // A new render of the same screen keeps its state: it is not mounted again.
    fireEvent.click(dom.getByRole('button', { name: 'Cambiar' }));
    expect(dom.getByRole('button', { name: 'Otra 1' })).toBeTruthy();
  });
});
