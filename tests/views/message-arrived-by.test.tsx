// A family's SMS or WhatsApp on its reading view (under StrictMode and without it), with the real reader
// machine over a scripted fetch: under the sender it says the channel and number it came by, and for a number
// of no family of the school that it cannot be answered here (no «Responder»).
import type { ReactNode } from 'react';
import { render, screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { describe, expect, it } from 'vitest';
import type { MessageDetail } from '../../shared/messages-contract';
import { MessagePage } from '../../src/views/pages/messages/message-page';
import { json } from '../fixtures/fake-fetch';
import { messageDetail } from '../fixtures/messages';
import { text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const FROM_FAMILY = messageDetail({
  id: 91,
  folder: 'inbox',
  kind: 'received',
  title: 'Re: Autorización salida pedagógica',
  content: 'Autorizo. Saludos.',
  channels: ['sms'],
  sender: { id: 8, name: 'Rosa Díaz Soto', kind: 'apoderado' },
  sender_of: [{ student: 'Óscar Núñez Núñez', course: '3° Básico A', relationship: 'Madre' }],
  reply_to_id: 80,
  reply_channels: ['app-mobile', 'sms'],
  arrived_by: { channel: 'sms', phone: '+56 9 8765 4321', known: true },
});

const FROM_UNKNOWN = messageDetail({
  id: 92,
  folder: 'inbox',
  kind: 'received',
  title: 'Mensaje por WhatsApp de +56 9 6123 4567 (número desconocido)',
  content: 'Hola, soy la abuela de Tomás.',
  channels: ['whatsapp'],
  sender: { id: 0, name: '+56 9 6123 4567', kind: 'funcionario' },
  allow_replies: false,
  reply_channels: [],
  arrived_by: { channel: 'whatsapp', phone: '+56 9 6123 4567', known: false },
});

const api = setUpScreenTest();

async function open(message: MessageDetail, wrap: (node: ReactNode) => ReactNode) {
  api.script[`GET /messages/${message.id}`] = [json(200, { data: message })];
  const { hook } = memoryLocation({ path: `/inbox/message/${message.id}` });
  render(
    wrap(
      <Router hook={hook}>
        <MessagePage folder="inbox" id={message.id} />
      </Router>,
    ),
  );
  const heading = await screen.findByRole('heading', { level: 1, name: message.title });
  return heading.closest('header')!;
}

describe.each(RENDER_MODES)('a family’s SMS or WhatsApp (%s)', (_mode, wrap) => {
  it('says the channel and number a guardian wrote from, and can be answered', async () => {
    const header = await open(FROM_FAMILY, wrap);
    expect(within(header).getByText('Llegó por SMS desde +56 9 8765 4321')).toBeTruthy();
    expect(within(header).queryByText(/^Número desconocido/)).toBeNull();
    expect(screen.getByRole('button', { name: text('messages.reply') })).toBeTruthy();
  });

  it('says a number of no family cannot be answered here, and offers no «Responder»', async () => {
    const header = await open(FROM_UNKNOWN, wrap);
    expect(within(header).getByText('Llegó por WhatsApp desde +56 9 6123 4567')).toBeTruthy();
    expect(within(header).getByText(text('messages.arrivedBy.unknown'))).toBeTruthy();
    expect(screen.queryByRole('button', { name: text('messages.reply') })).toBeNull();
  });

  it('says nothing of the kind for a message that came otherwise', async () => {
    const header = await open(messageDetail({ id: 93, folder: 'inbox', kind: 'received', title: 'Reunión' }), wrap);
    expect(header.querySelector('[data-slot=arrived-by]')).toBeNull();
  });
});
