// The out-in page transition (src/views/layout/page-transition.tsx): a page that is leaving is never the
// page shown when its address comes back. Found in Playwright: Back from compose, "Descartar", then
// Redactar again before the fade-out ended showed the old compose (its actor finished, its fields read-only,
// the discarded title in them) instead of a new one.
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { lazy, useState, type ReactElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { PageTransition } from '../../src/views/layout/page-transition';

afterEach(cleanup);

let mounts = 0;
function Page({ name }: { name: string }) {
  // One id per mounted instance: a remount gets a new one.
  const [id] = useState(() => ++mounts);
  return <p data-testid="page">{`${name} #${id}`}</p>;
}

const view = (location: string) => <PageTransition location={location} render={(shown) => <Page name={shown} />} />;
const page = (container: HTMLElement) => container.querySelector('[data-slot=page]') as HTMLElement;
/** The fade-out's end, under the name React listens to in jsdom (which has no CSS animations to name it). */
const fadeEnds = (element: HTMLElement) =>
  act(() => {
    fireEvent.animationEnd(element);
    element.dispatchEvent(new Event('webkitAnimationEnd', { bubbles: true }));
  });

describe('PageTransition', () => {
  it('fades the old page out, then shows the new one', () => {
    mounts = 0;
    const { container, rerender, getByTestId } = render(view('/new'));
    expect(getByTestId('page').textContent).toBe('/new #1');
    rerender(view('/inbox'));
    expect(page(container).className).toContain('animate-page-out');
    expect(getByTestId('page').textContent).toBe('/new #1');
    fadeEnds(page(container));
    expect(getByTestId('page').textContent).toBe('/inbox #2');
    expect(page(container).className).toContain('animate-page-in');
  });

  it('coming back to the leaving page’s address before its fade-out ends shows a new page, not the leaving one', () => {
    mounts = 0;
    const { container, rerender, getByTestId } = render(view('/new'));
    rerender(view('/inbox'));
    rerender(view('/new'));
    // Still the old one leaving: it must not stay as the page of the new visit.
    expect(page(container).className).toContain('animate-page-out');
    fadeEnds(page(container));
    expect(getByTestId('page').textContent).toBe('/new #2');
    expect(page(container).className).toContain('animate-page-in');
  });

  it('a new visit puts the keyboard focus on its heading; the first visit leaves it where the browser put it', async () => {
    const titled = (location: string) => (
      <main id="main" tabIndex={-1}>
        <PageTransition location={location} render={(shown) => <h1>{`Pantalla ${shown}`}</h1>} />
      </main>
    );
    const { container, rerender, getByRole } = render(titled('/inbox'));
    await act(async () => {});
    expect(document.activeElement).toBe(document.body);
    rerender(titled('/new'));
    fadeEnds(page(container));
    await act(async () => {});
    expect(document.activeElement).toBe(getByRole('heading', { level: 1, name: 'Pantalla /new' }));
  });

  it('a screen whose code is still coming shows the loading state in the page area; the shell around stays', async () => {
    let arrive: (screen: { default: () => ReactElement }) => void = () => {};
    const Slow = lazy(() => new Promise<{ default: () => ReactElement }>((resolve) => (arrive = resolve)));
    const shell = (location: string) => (
      <>
        <header>Encabezado</header>
        <main id="main" tabIndex={-1}>
          <PageTransition
            location={location}
            pending={<p role="status">Cargando…</p>}
            render={(shown) => (shown === '/templates' ? <Slow /> : <Page name={shown} />)}
          />
        </main>
      </>
    );
    const { container, rerender, getByRole, getByText, findByRole } = render(shell('/inbox'));
    rerender(shell('/templates'));
    fadeEnds(page(container));
    expect(getByRole('status').textContent).toBe('Cargando…');
    expect(getByText('Encabezado')).toBeTruthy();
    await act(async () => arrive({ default: () => <h1>Plantillas</h1> }));
    expect(await findByRole('heading', { level: 1, name: 'Plantillas' })).toBeTruthy();
    expect(document.activeElement).toBe(getByRole('heading', { level: 1, name: 'Plantillas' }));
  });
});
