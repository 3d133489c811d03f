// usePageActor with an address, under StrictMode and without it: the visit opens with what the query says,
// the machine's choices are written back (replacing the entry) without opening another visit, an address
// changed by the browser reaches the same actor, and another input opens another visit with the address as
// it is then. A small machine stands for a page's: it writes `?q=` with `navigate`, as the real ones do.
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { assign, emit, setup } from 'xstate';
import { useSelector } from '@xstate/react';
import { navigate } from 'wouter/use-browser-location';
import type { NavigateEvent } from '../../src/machines/app/effects';
import { usePageActor } from '../../src/views/lib/page-actor';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

setUpScreenTest();
afterEach(() => window.history.replaceState(null, '', '/'));

const here = () => window.location.pathname + window.location.search;
const queryOf = (search: string) => ({ q: new URLSearchParams(search).get('q') ?? '' });
const addressOf = (name: string, q: string) => `/probe/${name}${q ? `?q=${encodeURIComponent(q)}` : ''}`;

/** Every actor this machine started, by input: StrictMode must not open a visit twice. */
const opened: string[] = [];

const probeMachine = setup({
  types: {
    input: {} as { name: string; q: string },
    context: {} as { name: string; q: string; heard: string[] },
    events: {} as { type: 'probe.search'; q: string } | { type: 'probe.address'; q: string },
    emitted: {} as NavigateEvent,
  },
  actions: {
    assignQuery: assign(({ event }) => ({ q: event.q })),
    hear: assign(({ context, event }) => ({ heard: [...context.heard, event.q] })),
    showInAddress: emit(({ context }) => ({ type: 'navigate' as const, to: addressOf(context.name, context.q), replace: true })),
  },
  guards: {
    isOtherQuery: ({ context, event }) => event.q !== context.q,
  },
}).createMachine({
  id: 'probe',
  context: ({ input }) => {
    opened.push(`${input.name}:${input.q}`);
    return { name: input.name, q: input.q, heard: [] };
  },
  on: {
    'probe.search': { actions: ['assignQuery', 'showInAddress'] },
    'probe.address': { guard: 'isOtherQuery', actions: ['assignQuery', 'hear'] },
  },
});

function Probe({ name }: { name: string }) {
  const actor = usePageActor(probeMachine, { input: { name }, address: { read: queryOf, event: 'probe.address' } });
  return actor ? <ProbeScreen actor={actor} /> : <p>cargando</p>;
}

function ProbeScreen({ actor }: { actor: NonNullable<ReturnType<typeof usePageActor<typeof probeMachine>>> }) {
  const q = useSelector(actor, (s) => s.context.q);
  const name = useSelector(actor, (s) => s.context.name);
  const heard = useSelector(actor, (s) => s.context.heard.join(','));
  return (
    <>
      <input
        type="search"
        aria-label={`buscar en ${name}`}
        value={q}
        onChange={(e) => actor.send({ type: 'probe.search', q: e.currentTarget.value })}
      />
      <p data-testid="heard">{heard}</p>
    </>
  );
}

describe.each(RENDER_MODES)('usePageActor with an address (%s)', (_mode, wrap) => {
  afterEach(() => {
    opened.length = 0;
  });

  it('opens one visit with what the query says', async () => {
    window.history.replaceState(null, '', addressOf('a', 'reunión'));
    render(wrap(<Probe name="a" />));
    const box = (await screen.findByRole('searchbox', { name: 'buscar en a' })) as HTMLInputElement;
    expect(box.value).toBe('reunión');
    expect(opened).toEqual(['a:reunión']);
  });

  it("writes the machine's choices into the address, replacing the entry, and hears nothing new from it", async () => {
    window.history.replaceState(null, '', addressOf('a', ''));
    const entries = window.history.length;
    render(wrap(<Probe name="a" />));
    const box = (await screen.findByRole('searchbox')) as HTMLInputElement;
    for (const q of ['p', 'pa', 'pap']) await act(async () => fireEvent.change(box, { target: { value: q } }));
    expect(here()).toBe('/probe/a?q=pap');
    expect(window.history.length).toBe(entries);
    expect(box.value).toBe('pap');
    // Its own writing came back as a changed query, saying what it shows: nothing to hear, no new visit.
    expect(screen.getByTestId('heard').textContent).toBe('');
    expect(opened).toEqual(['a:']);
  });

  it('tells the same actor an address changed by the browser (a link, Back)', async () => {
    window.history.replaceState(null, '', addressOf('a', 'uno'));
    render(wrap(<Probe name="a" />));
    const box = (await screen.findByRole('searchbox')) as HTMLInputElement;
    await act(async () => navigate(addressOf('a', 'dos')));
    expect(box.value).toBe('dos');
    await act(async () => {
      window.history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(here()).toBe('/probe/a?q=uno');
    expect(box.value).toBe('uno');
    expect(screen.getByTestId('heard').textContent).toBe('dos,uno');
    expect(opened).toEqual(['a:uno']);
  });

  it('opens another visit for another input, with the address as it is then', async () => {
    window.history.replaceState(null, '', addressOf('a', 'uno'));
    const view = render(wrap(<Probe name="a" />));
    await screen.findByRole('searchbox', { name: 'buscar en a' });
    window.history.replaceState(null, '', addressOf('b', 'otra'));
    view.rerender(wrap(<Probe name="b" />));
    const box = (await screen.findByRole('searchbox', { name: 'buscar en b' })) as HTMLInputElement;
    expect(box.value).toBe('otra');
    expect(opened).toEqual(['a:uno', 'b:otra']);
  });
});
