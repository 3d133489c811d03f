// The out-in page transition (src/views/layout/page-transition.tsx): a page that is leaving is never the
// page shown when its address comes back. Found in Playwright: Back from compose, "Descartar", then
// Redactar again before the fade-out ended showed the old compose (its actor finished, its fields read-only,
// the discarded title in them) instead of a new one.
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { useState } from 'react';
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
});
