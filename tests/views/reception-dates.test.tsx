// The reception view as a Mexican school reads it: one date style (four-digit years, the clock
// the country reads), no "p.m.." double stop in what screen readers hear, and the device colour legend
// shown where the colours are, before the rows, not folded away at the end.
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { es } from '../fixtures/texts';
import { startApp } from './app';
import { localeActor } from '../../src/views/actors';
import { selectIsLocaleLoading } from '../../src/machines/app/locale';
import { ReceptionPage } from '../../src/views/pages/reception/reception-page';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { channelDelivery, deliveryProgress, receptionPage, receptionRow } from '../fixtures/reception';

const ID = 7;
/** 17:05 in Santiago (UTC-3 in March): "5:05 p.m." in es-MX. */
const AFTERNOON = '2026-03-02T20:05:00Z';

const ROW = receptionRow(1, 'read', {
  device: 'yellow',
  channels: [channelDelivery('sms', 'read', { sent_at: AFTERNOON, delivered_at: AFTERNOON, read_at: AFTERNOON })],
});

const fake = installFakeFetch();

async function switchTo(locale: 'es-CL' | 'es-MX') {
  await act(async () => {
    localeActor.send({ type: 'locale.change', locale });
  });
  await waitFor(() => expect(localeActor.getSnapshot().context.locale).toBe(locale));
  expect(selectIsLocaleLoading(localeActor.getSnapshot())).toBe(false);
}

beforeAll(startApp);
afterEach(cleanup);
afterAll(() => switchTo('es-CL'));

async function renderRows() {
  fake.answer = () => json(200, receptionPage([ROW], deliveryProgress({ read: 1 })));
  render(<ReceptionPage id={ID} />);
  return screen.findByRole('table');
}

describe('reception view, dates and legend', () => {
  it('es-MX: delivery times with a four-digit year and a 12-hour clock, and no double stop after "p.m."', async () => {
    await switchTo('es-MX');
    const table = await renderRows();
    const text = within(table).getAllByRole('row')[1]?.textContent ?? '';
    expect(text).toContain('02/03/2026, 5:05 p.m.');
    expect(text).not.toMatch(/\.\./);
    expect(text).not.toMatch(/\b\d{1,2}\/\d{1,2}\/\d{2}\b/);
  });

  it('es-CL: the same time on a 24-hour clock, the same date style', async () => {
    await switchTo('es-CL');
    const table = await renderRows();
    const text = within(table).getAllByRole('row')[1]?.textContent ?? '';
    expect(text).toContain('02-03-2026, 17:05');
    expect(text).not.toMatch(/p\. ?m\./);
  });

  it("an SMS not sent because the phone texted BAJA says since when, in each country's date", async () => {
    // 3 March 02:00 UTC is still 2 March in Santiago.
    const optedOut = receptionRow(2, 'received', {
      channels: [
        channelDelivery('e-mail', 'received'),
        channelDelivery('sms', 'failed', { error: 'opted_out', sent_at: null, opted_out_at: '2026-03-03T02:00:00Z' }),
      ],
    });
    fake.answer = () => json(200, receptionPage([optedOut], deliveryProgress({ received: 1, failed: 1 })));
    await switchTo('es-MX');
    render(<ReceptionPage id={ID} />);
    let table = await screen.findByRole('table');
    expect(within(table).getByText('Se dio de baja el 02/03/2026')).toBeTruthy();
    cleanup();
    await switchTo('es-CL');
    render(<ReceptionPage id={ID} />);
    table = await screen.findByRole('table');
    expect(within(table).getByText('Se dio de baja el 02-03-2026')).toBeTruthy();
    expect(es.reception.optedOutOn).toBe('Se dio de baja el {{date}}');
  });

  it('the device colour legend is in view before the rows, not folded in a section at the end', async () => {
    const table = await renderRows();
    const legend = screen.getByRole('group', { name: es.device.legend.title });
    // Every colour is explained as it is shown, without opening anything.
    expect(legend.closest('details')).toBeNull();
    for (const status of ['blue', 'green', 'yellow', 'red'] as const) {
      expect(within(legend).getByText(es.device.legend[status])).toBeTruthy();
    }
    expect(legend.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
