// A sent message's reception status on its reading view (under StrictMode and without it): the
// real reader and lifecycle machines over a scripted fetch. People and deliveries are two numbers and say so:
// the people the message was for (the estimate's count), and the deliveries, one per person and channel,
// which the per-state chips count.
import { render, screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { describe, expect, it } from 'vitest';
import { text } from '../fixtures/texts';
import { MessagePage } from '../../src/views/pages/messages/message-page';
import { json } from '../fixtures/fake-fetch';
import { messageDetail } from '../fixtures/messages';
import { deliveryProgress } from '../fixtures/reception';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

/** Message 90, sent by app and SMS to 46 people: 92 deliveries, 40 received, 52 failed (no address, say). */
const SENT = messageDetail({
  id: 90,
  folder: 'sent',
  channels: ['app-mobile', 'sms'],
  recipients_summary: { total: 46, label: '3° Básico A', groups: [{ kind: 'curso', name: '3° Básico A', count: 46 }] },
  reception: deliveryProgress({ received: 40, failed: 52 }),
});

const api = setUpScreenTest();

describe.each(RENDER_MODES)('message page (%s)', (_mode, wrap) => {
  it('a sent message says how many people it was for, and counts deliveries as deliveries', async () => {
    api.script['GET /messages/90'] = [json(200, { data: SENT })];
    const { hook } = memoryLocation({ path: '/sent/message/90' });
    render(
      wrap(
        <Router hook={hook}>
          <MessagePage folder="sent" id={90} />
        </Router>,
      ),
    );
    const reception = await screen.findByRole('region', { name: text('messages.reception') });
    expect(
      within(reception).getByText('Para 46 personas · 92 entregas intentadas (cada persona, por cada canal en que tiene dirección)'),
    ).toBeTruthy();
    const chips = within(reception)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(chips).toContain(`${text('messages.status.received')}: 40 / 92 entregas`);
    expect(chips).toContain(`${text('messages.status.failed')}: 52 / 92 entregas`);
  });
});
