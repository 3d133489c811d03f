// The reception status screen's wiring: the real reception-status machine and services over a scripted
// fetch. Rows with per-channel statuses and Spanish error reasons, a filter chip asks the server again,
// "Reintentar fallidos" shows the SPEC's "reenviado a N" toast and reloads, empty and error states; and
// the reading view of a sent message, whose delivery progress follows the message as it is polled.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { es, mx } from '../fixtures/texts';
import type { DeliveryProgress, ReceptionRow } from '../../shared/reception-contract';
import { startApp } from './app';
import { Toaster } from '../../src/views/layout/toaster';
import { toast } from 'react-hot-toast/headless';
import { MessagePage } from '../../src/views/pages/messages/message-page';
import { ReceptionPage as ReceptionScreen } from '../../src/views/pages/reception/reception-page';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { messageDetail } from '../fixtures/messages';
import { channelDelivery, countsOf, deliveryProgress, receptionPage, receptionRow } from '../fixtures/reception';

const ID = 7;

const PARTIAL = deliveryProgress({ received: 1, read: 1, failed: 2 });
const SENDING = deliveryProgress({ received: 1, read: 1, queued: 2 });

const CAROLINA = receptionRow(1, 'read', {
  name: 'Carolina Núñez',
  student_names: 'Tomás Núñez',
  email: 'carolina@correo.cl',
  phone: '+56997473752',
  channels: [channelDelivery('e-mail', 'read'), channelDelivery('sms', 'received')],
});
const JORGE = receptionRow(2, 'failed', {
  name: 'Jorge Pérez',
  student_names: 'Ana Pérez',
  email: null,
  phone: '+5691234',
  device: 'yellow',
  channels: [channelDelivery('sms', 'failed', { error: 'invalid_number' })],
});

const body = (rows: ReceptionRow[], progress: DeliveryProgress, current = 1, last = 1) => receptionPage(rows, progress, { current, last });

/** Every code the delivery engine records in `deliveries.error` (reception-contract.ts). */
const ERROR_CODES = [
  'missing_address',
  'invalid_number',
  'not_mobile',
  'rejected',
  'undelivered',
  'unreachable',
  'quota',
  'cancelled',
  'no_receipt',
  'app_not_opened',
  'provider_auth',
] as const;

const fake = installFakeFetch();

beforeAll(startApp);
afterEach(() => {
  cleanup();
  // react-hot-toast keeps its toasts in a module store: without this one test's toast shows in the next.
  act(() => toast.remove());
  window.history.replaceState(null, '', '/');
});

/** The visible progress text, and the screen readers' live one (the state alone). */
const shownProgress = () => document.querySelector('[data-slot=progress-text]')?.textContent;
const liveProgress = () => document.querySelector('[aria-live=polite].sr-only')?.textContent;

const receptionCalls = () => fake.requests.filter((r) => r.url.includes(`/messages/${ID}/reception`));

function renderPage() {
  render(
    <>
      <ReceptionScreen id={ID} />
      <Toaster />
    </>,
  );
}

describe('reception page', () => {
  it('shows each recipient with per-channel statuses, Spanish error reasons and the progress', async () => {
    fake.answer = () => json(200, body([CAROLINA, JORGE], PARTIAL));
    renderPage();
    const table = await screen.findByRole('table', { name: es.reception.rows });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0] as HTMLElement).getByText('Tomás Núñez')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('Carolina Núñez')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('carolina@correo.cl')).toBeTruthy();
    // Phones read the international way, as on every screen.
    expect(rows[0]?.textContent).toContain('+56 9 9747 3752');
    expect(within(rows[0] as HTMLElement).getByText('Correo: Leído')).toBeTruthy();
    expect(within(rows[0] as HTMLElement).getByText('SMS: Recibido')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText('SMS: Fallido')).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText(es.reception.errorCode.invalid_number)).toBeTruthy();
    expect(within(rows[1] as HTMLElement).getByText(es.reception.noAddress)).toBeTruthy();
    expect(shownProgress()).toBe(es.reception.progressPartial);
    expect(liveProgress()).toBe(es.reception.progressPartial);
    // Chips carry their counts; "Todos" is the one pressed.
    expect(screen.getByRole('button', { name: `${es.reception.filter.failed} (2)` }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('button', { name: `${es.reception.filter.all} (4)` }).getAttribute('aria-pressed')).toBe('true');
    expect(receptionCalls()[0]?.url).toContain('page=1');
    expect(receptionCalls()[0]?.url).not.toContain('status=');
  });

  it("names who each row is about with the course: a guardian's children, a student themself", async () => {
    const guardian = receptionRow(1, 'read', {
      name: 'Carla Contreras Soto',
      student_names: 'Maximiliano Pizarro',
      students: [{ name: 'Maximiliano Pizarro Contreras', course: '3° Básico A' }],
    });
    const student = receptionRow(2, 'read', {
      kind: 'estudiante',
      name: 'Maximiliano Pizarro Carrasco',
      student_names: null,
      group: 'Electivo de Teatro',
      device: null,
      students: [{ name: 'Maximiliano Pizarro Carrasco', course: 'III Medio A' }],
    });
    fake.answer = () => json(200, body([guardian, student], PARTIAL));
    renderPage();
    const table = await screen.findByRole('table', { name: es.reception.rows });
    const [first, second] = within(table).getAllByRole('row').slice(1) as [HTMLElement, HTMLElement];
    const studentCell = (row: HTMLElement) => row.querySelector('td')?.textContent;
    expect(studentCell(first)).toBe('Maximiliano Pizarro Contreras · 3° Básico A');
    expect(studentCell(second)).toBe('Maximiliano Pizarro Carrasco · III Medio A');
  });

  it('a filter chip asks for that status and shows what comes back', async () => {
    fake.answer = (url) => json(200, url.includes('status=failed') ? body([JORGE], PARTIAL) : body([CAROLINA, JORGE], PARTIAL));
    renderPage();
    await screen.findByText('Carolina Núñez');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `${es.reception.filter.failed} (2)` })));
    await waitFor(() => expect(screen.queryByText('Carolina Núñez')).toBeNull());
    expect(screen.getByText('Jorge Pérez')).toBeTruthy();
    // His device colour is on his row, named for screen readers.
    expect(document.querySelector('[data-slot=device-dot][data-status=yellow]')?.getAttribute('aria-label')).toBe(es.device.status.yellow);
    expect(receptionCalls().at(-1)?.url).toContain('status=failed');
    expect(screen.getByRole('button', { name: `${es.reception.filter.failed} (2)` }).getAttribute('aria-pressed')).toBe('true');
  });

  it('"Reintentar fallidos" says it was resent to N recipients and reloads the statuses', async () => {
    let retried = false;
    fake.answer = (url) => {
      if (url.endsWith('/reception/retry')) {
        retried = true;
        return json(200, { data: { resent: 2, progress: SENDING, channels: [], retryable: 0 } });
      }
      return json(
        200,
        retried
          ? body([CAROLINA, { ...JORGE, status: 'pending', channels: [channelDelivery('sms', 'queued')] }], SENDING)
          : body([CAROLINA, JORGE], PARTIAL),
      );
    };
    renderPage();
    await screen.findByText('Jorge Pérez');
    const button = screen.getByRole('button', { name: es.reception.retry });
    expect(button.hasAttribute('disabled')).toBe(false);
    await act(async () => fireEvent.click(button));
    expect(await screen.findByText('Reenviado a 2 destinatarios')).toBeTruthy();
    expect(fake.requests.some((r) => r.method === 'POST' && r.url.endsWith(`/messages/${ID}/reception/retry`))).toBe(true);
    expect(await screen.findByText('SMS: En cola')).toBeTruthy();
    expect(shownProgress()).toBe('Enviando… 2 de 4 entregas');
    expect(liveProgress()).toBe(es.reception.progressState);
    // Nothing left to retry: the button is disabled and says why.
    expect(screen.getByRole('button', { name: es.reception.retry }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByText(es.reception.retryNone)).toBeTruthy();
  });

  it('"Reintentar fallidos" stays enabled while the list reloads behind it', async () => {
    fake.answer = () => json(200, body([CAROLINA, JORGE], PARTIAL));
    renderPage();
    await screen.findByText('Jorge Pérez');
    // The next load never answers: the page stays in its reload (as during every live refresh).
    fake.answer = (() => new Promise<Response>(() => undefined)) as unknown as typeof fake.answer;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: `${es.reception.filter.failed} (2)` })));
    expect(screen.getByRole('table', { name: es.reception.rows }).getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('button', { name: es.reception.retry }).hasAttribute('disabled')).toBe(false);
  });

  it('an empty filter says so', async () => {
    fake.answer = () => json(200, body([], { ...PARTIAL, failed: 0, retryable: 0, state: 'sent' }));
    renderPage();
    expect(await screen.findByText(es.reception.empty)).toBeTruthy();
    expect(screen.getByRole('button', { name: es.reception.retry }).hasAttribute('disabled')).toBe(true);
  });

  it('names every delivery error code in Spanish, but only once the delivery has settled', async () => {
    for (const code of ERROR_CODES) {
      expect(es.reception.errorCode[code], `es-CL ${code}`).toMatch(/\S/);
      expect(mx.reception.errorCode[code], `es-MX ${code}`).toMatch(/\S/);
    }
    const rows: ReceptionRow[] = [
      { ...JORGE, recipient_id: 3, name: 'Sin recibo', channels: [channelDelivery('sms', 'not_received', { error: 'no_receipt' })] },
      { ...JORGE, recipient_id: 4, name: 'Sin abrir', channels: [channelDelivery('e-mail', 'not_received', { error: 'app_not_opened' })] },
      { ...JORGE, recipient_id: 5, name: 'Credenciales', channels: [channelDelivery('sms', 'failed', { error: 'provider_auth' })] },
      // Queued again after a temporary error, or handed over again: no reason while in flight.
      {
        ...JORGE,
        recipient_id: 6,
        name: 'En cola',
        status: 'pending',
        channels: [channelDelivery('sms', 'queued', { error: 'unreachable' })],
      },
      {
        ...JORGE,
        recipient_id: 7,
        name: 'Entregado al proveedor',
        status: 'pending',
        channels: [channelDelivery('sms', 'sent', { error: 'provider_auth' })],
      },
    ];
    fake.answer = () => json(200, body(rows, PARTIAL));
    renderPage();
    const table = await screen.findByRole('table', { name: es.reception.rows });
    const row = (name: string) => within(table).getByText(name).closest('tr') as HTMLElement;
    expect(within(row('Sin recibo')).getByText(es.reception.errorCode.no_receipt)).toBeTruthy();
    expect(within(row('Sin abrir')).getByText(es.reception.errorCode.app_not_opened)).toBeTruthy();
    expect(within(row('Credenciales')).getByText(es.reception.errorCode.provider_auth)).toBeTruthy();
    expect(within(row('En cola')).getByText('SMS: En cola')).toBeTruthy();
    expect(within(row('En cola')).queryByText(es.reception.errorCode.unreachable)).toBeNull();
    expect(within(row('Entregado al proveedor')).queryByText(es.reception.errorCode.provider_auth)).toBeNull();
    expect(within(table).queryByText(es.reception.errorCode.unknown)).toBeNull();
  });

  it('the Estudiante column names the children, never the course; a row without deliveries says so', async () => {
    const legacy = receptionRow(3, 'received', { name: 'Marta Rojas', student_names: null, group: 'Pre-kínder A', channels: [] });
    fake.answer = () => json(200, body([CAROLINA, legacy], PARTIAL));
    renderPage();
    const table = await screen.findByRole('table', { name: es.reception.rows });
    const cells = within(within(table).getByText('Marta Rojas').closest('tr') as HTMLElement).getAllByRole('cell');
    expect(cells[0]?.textContent).not.toContain('Pre-kínder A');
    expect(cells[0]?.textContent).toContain(es.reception.col.noStudent);
    expect(cells[4]?.textContent).toBe(es.reception.noDeliveries);
  });

  it('says why the retry offer and the message state differ', async () => {
    // Everyone reached on some channel; two SMS lost beside an app message that arrived: "Enviado", and 2 to retry.
    fake.answer = () => json(200, body([CAROLINA], deliveryProgress({ received: 3, not_received: 2, unreached: 0 })));
    renderPage();
    expect(await screen.findByText(es.reception.retryReachedElsewhere)).toBeTruthy();
    expect(shownProgress()).toBe(es.reception.progressSent);
    cleanup();
    // Failures of people with no address on that channel: nothing a retry can send, and that is why.
    fake.answer = () => json(200, body([CAROLINA], deliveryProgress({ received: 3, failed: 2, no_address: 2, unreached: 0 })));
    renderPage();
    expect(await screen.findByText(es.reception.retryNoAddress_other.replace('{{count}}', '2'))).toBeTruthy();
    expect(screen.queryByText(es.reception.retryNone)).toBeNull();
    cleanup();
    // Someone reached on no channel: "Enviado con fallos", who, and the retry offer.
    fake.answer = () => json(200, body([CAROLINA, JORGE], deliveryProgress({ received: 2, not_received: 3, unreached: 3 })));
    renderPage();
    expect(await screen.findByText(es.reception.unreached_other.replace('{{count}}', '3'))).toBeTruthy();
    expect(shownProgress()).toBe(es.reception.progressPartial);
    expect(screen.getByText(es.reception.retryHint_other.replace('{{count}}', '3'))).toBeTruthy();
  });

  it('the retry hint is singular for one delivery', async () => {
    fake.answer = () => json(200, body([JORGE], { ...PARTIAL, failed: 1, retryable: 1 }));
    renderPage();
    expect(await screen.findByText(es.reception.retryHint_one.replace('{{count}}', '1'))).toBeTruthy();
    expect(es.reception.retryHint_one).toBe('Se volverá a enviar 1 entrega fallida o no recibida.');
    expect(mx.reception.retryHint_one).toMatch(/\b1 entrega\b/);
    cleanup();
    fake.answer = () => json(200, body([CAROLINA, JORGE], PARTIAL));
    renderPage();
    expect(await screen.findByText(es.reception.retryHint_other.replace('{{count}}', '2'))).toBeTruthy();
  });

  it('only the delivery state is live for screen readers; the counts are shown, not announced', async () => {
    fake.answer = () => json(200, body([CAROLINA], SENDING));
    renderPage();
    const counts = await screen.findByText('Enviando… 2 de 4 entregas');
    expect(counts.closest('[aria-live]')).toBeNull();
    const summary = screen.getByRole('region', { name: es.reception.summary });
    const live = summary.querySelectorAll('[aria-live]');
    expect(live).toHaveLength(1);
    expect(live[0]?.textContent).toBe(es.reception.progressState);
    expect(live[0]?.getAttribute('aria-live')).toBe('polite');
  });

  it('after everything was received, follows a WhatsApp «Leído» every 30 s while the server says one is awaited', async () => {
    const received = receptionRow(3, 'received', { name: 'Paula Soto', channels: [channelDelivery('whatsapp', 'received')] });
    const read = receptionRow(3, 'read', { name: 'Paula Soto', channels: [channelDelivery('whatsapp', 'read')] });
    fake.answer = () => json(200, receptionPage([received], deliveryProgress({ received: 1 }), { awaitingReads: 1 }));
    // Fake time that also runs on its own, so the page's own waits still end.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderPage();
      await screen.findByText('WhatsApp: Recibido');
      expect(shownProgress()).toBe(es.reception.progressSent);
      fake.answer = () => json(200, receptionPage([read], deliveryProgress({ read: 1 })));
      // Not at the sending pace (2 s), nor well before 30 s: 25 s leaves room for the real time this fake
      // clock also lets pass on a loaded machine (the model test pins the pace to the millisecond).
      await act(() => vi.advanceTimersByTimeAsync(25_000));
      expect(receptionCalls()).toHaveLength(1);
      await act(() => vi.advanceTimersByTimeAsync(5_000));
      expect(await screen.findByText('WhatsApp: Leído')).toBeTruthy();
      // Nothing left to follow: an hour later, still the two loads.
      await act(() => vi.advanceTimersByTimeAsync(60 * 60_000));
      expect(receptionCalls()).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('an answer past the last page (the list shrank) asks for the last page instead', async () => {
    fake.answer = (url) => json(200, url.includes('page=2') ? body([JORGE], PARTIAL, 2, 2) : body([CAROLINA], PARTIAL, 1, 2));
    renderPage();
    await screen.findByText('Carolina Núñez');
    // Meanwhile the list shrank to one page; the server echoes page 2 with no rows.
    fake.answer = (url) => json(200, url.includes('page=2') ? body([], PARTIAL, 2, 1) : body([CAROLINA], PARTIAL, 1, 1));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.reception.next })));
    await waitFor(() => expect(receptionCalls().at(-1)?.url).toContain('page=1'));
    expect(receptionCalls().map((r) => new URL(r.url, 'http://x').searchParams.get('page'))).toEqual(['1', '2', '1']);
    expect(await screen.findByText('Carolina Núñez')).toBeTruthy();
    expect(screen.queryByText(es.reception.empty)).toBeNull();
  });

  it("a message that is not the user's (404) shows the not-found page, with no endless Reintentar", async () => {
    fake.answer = () => json(404, { message: 'No encontrado', code: 'not_found' });
    renderPage();
    expect(await screen.findByRole('heading', { name: es.error.notFoundTitle })).toBeTruthy();
    expect(screen.queryByText(es.reception.loadFailed)).toBeNull();
    expect(screen.queryByRole('button', { name: es.reception.reload })).toBeNull();
    expect(receptionCalls()).toHaveLength(1);
  });

  it('a failed first load offers Reintentar, which loads again', async () => {
    fake.answer = () => json(500, { message: 'Error interno', code: 'server.error' });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(es.reception.loadFailed)).toBeTruthy();
    fake.answer = () => json(200, body([CAROLINA], PARTIAL));
    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: es.reception.reload })));
    expect(await screen.findByText('Carolina Núñez')).toBeTruthy();
    expect(receptionCalls()).toHaveLength(2);
  });
});

/**
 * E-mail + SMS, all three e-mails arrived, two SMS did not. By person nobody missed it; by SMS,
 * Rosa and Luis did.
 */
const EMAIL_OK = deliveryProgress({ received: 3 });
const SMS_MISSED = deliveryProgress({ received: 1, not_received: 2 });
const BOTH = deliveryProgress({ received: 4, not_received: 2 });
const CHANNELS = [
  { channel: 'e-mail' as const, progress: EMAIL_OK },
  { channel: 'sms' as const, progress: SMS_MISSED },
];
const guardian = (id: number, name: string, sms: 'received' | 'not_received') =>
  receptionRow(id, 'received', {
    name,
    channels: [channelDelivery('e-mail', 'received'), channelDelivery('sms', sms, sms === 'received' ? {} : { error: 'undelivered' })],
  });
const ROSA = guardian(11, 'Rosa Díaz', 'not_received');
const LUIS = guardian(12, 'Luis Soto', 'not_received');
const ANA = guardian(13, 'Ana Rojas', 'received');

/** The server's answer to a reception query of that message, by its channel and status. */
function byChannel(url: string) {
  const query = new URL(url, 'http://x').searchParams;
  if (query.get('channel') !== 'sms') {
    // By person: all three received (by e-mail at least).
    return receptionPage([ROSA, LUIS, ANA], BOTH, { channels: CHANNELS, counts: countsOf(deliveryProgress({ received: 3 })) });
  }
  const rows = query.get('status') === 'not_received' ? [ROSA, LUIS] : [ROSA, LUIS, ANA];
  return receptionPage(rows, BOTH, { channels: CHANNELS, counts: countsOf(SMS_MISSED), retryable: 2 });
}

describe('reception page by channel', () => {
  /** The summary's figure of one channel and state ("No recibido: 2" on the SMS line), 0 when not shown. */
  const figure = (channel: string, state: keyof typeof es.reception.recipientStatus) => {
    const line = document.querySelector(`[aria-label="${es.reception.byChannel}"] > li[data-channel="${channel}"]`);
    return Number(line?.querySelector(`[data-state="${state}"] strong`)?.textContent ?? 0);
  };
  const chip = (filter: keyof typeof es.reception.filter) =>
    screen
      .getByRole('group', { name: es.reception.filters })
      .querySelector(`button:nth-child(${Object.keys(es.reception.filter).indexOf(filter) + 1})`) as HTMLElement;
  const chipCount = (filter: keyof typeof es.reception.filter) => Number(/\((\d+)\)/.exec(chip(filter).textContent ?? '')?.[1]);

  it('SMS lists who did not get the SMS, its chips agree with its summary, the address keeps it, the retry is of that list', async () => {
    fake.answer = (url) =>
      url.endsWith('/reception/retry')
        ? json(200, { data: { resent: 2, progress: BOTH, channels: CHANNELS, retryable: 0 } })
        : json(200, byChannel(url));
    renderPage();
    await screen.findByText('Rosa Díaz');
    // Every channel: by person nobody missed it, and the hint says the chips count people.
    expect(chipCount('not_received')).toBe(0);
    expect(figure('sms', 'not_received')).toBe(2);
    expect(screen.getByText(es.reception.filtersHintAll)).toBeTruthy();

    const picker = screen.getByRole('group', { name: es.reception.channelFilter });
    expect(
      within(picker)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([es.reception.channelAll, 'Correo', 'SMS']);
    await act(async () => fireEvent.click(within(picker).getByRole('button', { name: 'SMS' })));
    await waitFor(() => expect(receptionCalls().at(-1)?.url).toContain('channel=sms'));
    expect(window.location.pathname + window.location.search).toBe(`/sent/message/${ID}/reception?channel=sms`);
    await waitFor(() => expect(chipCount('not_received')).toBe(2));
    for (const state of ['pending', 'received', 'read', 'not_received', 'error', 'failed'] as const) {
      expect(chipCount(state), state).toBe(figure('sms', state));
    }
    expect(chipCount('all')).toBe(SMS_MISSED.total);
    expect(within(picker).getByRole('button', { name: 'SMS' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(es.reception.filtersHintChannel.replaceAll('{{channel}}', 'SMS'))).toBeTruthy();

    await act(async () => fireEvent.click(chip('not_received')));
    await waitFor(() => expect(screen.queryByText('Ana Rojas')).toBeNull());
    expect(window.location.search).toBe('?channel=sms&status=not_received');
    const table = screen.getByRole('table', { name: es.reception.rows });
    // Each row says its SMS state, the one the list is of (by person, Rosa received it by e-mail).
    expect(within(table).getAllByText(`3° Básico A · SMS: ${es.reception.recipientStatus.not_received}`)).toHaveLength(2);
    expect(screen.getByText(es.reception.retryHintChannel_other.replace('{{count}}', '2').replace('{{channel}}', 'SMS'))).toBeTruthy();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.reception.retry })));
    expect(await screen.findByText('Reenviado a 2 destinatarios')).toBeTruthy();
    const retried = fake.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/reception/retry'));
    expect(retried.map((r) => r.body)).toEqual([{ channel: 'sms', status: 'not_received', q: '' }]);
  });

  it('opens the list the address names (Back to who missed the SMS)', async () => {
    window.history.replaceState(null, '', `/sent/message/${ID}/reception?channel=sms&status=not_received`);
    fake.answer = (url) => json(200, byChannel(url));
    renderPage();
    await screen.findByText('Rosa Díaz');
    const first = new URL(receptionCalls()[0]!.url, 'http://x').searchParams;
    expect(first.get('channel')).toBe('sms');
    expect(first.get('status')).toBe('not_received');
    expect(screen.queryByText('Ana Rojas')).toBeNull();
    expect(
      within(screen.getByRole('group', { name: es.reception.channelFilter }))
        .getByRole('button', { name: 'SMS' })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(chip('not_received').getAttribute('aria-pressed')).toBe('true');
  });
});

/** The sent message as each poll brings it: `reception` is what the reading view shows. */
const SENT_DETAIL = (reception: DeliveryProgress) =>
  messageDetail({
    id: ID,
    folder: 'sent',
    channels: ['sms', 'e-mail'],
    recipients_summary: { total: 4, label: '3° Básico A', groups: [] },
    progress: reception,
    reception,
  });

describe('message page of a sent message', () => {
  it('counts the deliveries tried (people × channels where they have an address) and those never tried apart', async () => {
    // 30 people by App, Correo and SMS: 8 without the app, 2 without e-mail.
    const progress = deliveryProgress({ received: 50, read: 30, no_address: 10, failed: 10, unreached: 0 });
    fake.answer = () =>
      json(200, { data: { ...SENT_DETAIL(progress), recipients_summary: { total: 30, label: '3° Básico A', groups: [] } } });
    render(<MessagePage folder="sent" id={ID} />);
    await waitFor(() => expect(document.querySelector('[data-slot=reach-summary]')).not.toBeNull());
    expect(document.querySelector('[data-slot=reach-summary]')?.textContent).toBe(
      [
        es.messages.reachedPeople_other.replace('{{count}}', '30'),
        es.messages.deliveryCount_other.replace('{{count}}', '80'),
        es.messages.noAddressCount_other.replace('{{count}}', '10'),
      ].join(' · '),
    );
  });

  it('shows "Enviando… N de M entregas", follows the polls to "Enviado con fallos" and links to the reception status', async () => {
    let polls = 0;
    fake.answer = () => {
      polls += 1;
      return json(200, { data: SENT_DETAIL(polls === 1 ? SENDING : PARTIAL) });
    };
    render(<MessagePage folder="sent" id={ID} />);
    expect(await screen.findByText('Enviando… 2 de 4 entregas')).toBeTruthy();
    const link = screen.getByRole('link', { name: es.reception.view });
    expect(link.getAttribute('href')).toBe(`/sent/message/${ID}/reception`);
    // The lifecycle polls the message every PROGRESS_POLL_MS while deliveries are in flight.
    expect(liveProgress()).toBe(es.reception.progressState);
    expect(screen.getByText('Enviando… 2 de 4 entregas').closest('[aria-live]')).toBeNull();
    await waitFor(() => expect(shownProgress()).toBe(es.reception.progressPartial), { timeout: 4000 });
    expect(liveProgress()).toBe(es.reception.progressPartial);
    expect(polls).toBe(2);
  });
});
