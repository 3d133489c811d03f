// A guardian's message on its reading view (under StrictMode and without it), with the real reader machine
// over a scripted fetch: it says whose guardian wrote (child and course), and its conversation shows every
// message whole, each with a link that opens it.
import { render, screen, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { describe, expect, it } from 'vitest';
import { MessagePage } from '../../src/views/pages/messages/message-page';
import { json } from '../fixtures/fake-fetch';
import { messageDetail } from '../fixtures/messages';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const ROSA_OF = [{ student: 'Óscar Núñez Núñez', course: '3° Básico A', relationship: 'Madre' }];
/** Longer than any first-words snippet, over several lines. */
const LONG = [
  'Estimadas familias: el jueves 12 salimos al Museo de Historia Natural.',
  '',
  'Los estudiantes deben llegar a las 8:00 con uniforme, colación y la autorización firmada; volvemos a las',
  '13:30. Quien no traiga la autorización se queda en el colegio con el curso paralelo, sin excepciones.',
].join('\n');

const QUESTION = messageDetail({
  id: 91,
  folder: 'inbox',
  kind: 'received',
  title: 'Re: Salida pedagógica',
  content: '¿Hay que llevar almuerzo?',
  sender: { id: 8, name: 'Rosa Díaz Soto', kind: 'apoderado' },
  sender_of: ROSA_OF,
  allow_replies: false,
  thread: [
    {
      id: 80,
      folder: 'sent',
      title: 'Salida pedagógica',
      content: LONG,
      sender: { id: 3, name: 'Ana Pérez', kind: 'funcionario' },
      sender_of: [],
      date: '2026-03-01T12:00:00Z',
    },
    {
      id: 95,
      folder: 'inbox',
      title: 'Re: Salida pedagógica',
      content: 'Gracias, quedó claro.',
      sender: { id: 9, name: 'Pedro Núñez Rojas', kind: 'apoderado' },
      sender_of: [
        { student: 'Óscar Núñez Núñez', course: '3° Básico A', relationship: 'Padre' },
        { student: 'Ana Núñez Núñez', course: 'I Medio B', relationship: 'Padre' },
      ],
      date: '2026-03-02T12:00:00Z',
    },
  ],
});

const api = setUpScreenTest();

describe.each(RENDER_MODES)('a conversation with a family (%s)', (_mode, wrap) => {
  it('names whose guardian wrote, and shows every message of the conversation whole with a link to it', async () => {
    api.script['GET /messages/91'] = [json(200, { data: QUESTION })];
    const { hook } = memoryLocation({ path: '/inbox/message/91' });
    render(
      wrap(
        <Router hook={hook}>
          <MessagePage folder="inbox" id={91} />
        </Router>,
      ),
    );
    const conversation = await screen.findByRole('region', { name: 'Conversación' });
    // The message's own header: who wrote and whose guardian they are.
    const header = screen.getByRole('heading', { level: 1, name: 'Re: Salida pedagógica' }).closest('header')!;
    expect(within(header).getByText('Apoderada de Óscar Núñez Núñez · 3° Básico A')).toBeTruthy();

    const items = within(conversation).getAllByRole('article');
    expect(items).toHaveLength(2);
    // The teacher's message, whole: every line, not its first words; its title opens it.
    expect(items[0]!.querySelector('[data-slot=thread-content]')?.textContent).toBe(LONG);
    expect(within(items[0]!).getByRole('link', { name: 'Salida pedagógica' }).getAttribute('href')).toBe('/sent/message/80');
    expect(within(items[0]!).queryByText(/^Apoderad/)).toBeNull();
    // A father of two: both children, with their courses.
    expect(within(items[1]!).getByText('Apoderado de Óscar Núñez Núñez · 3° Básico A y Ana Núñez Núñez · I Medio B')).toBeTruthy();
    expect(within(items[1]!).getByText('Gracias, quedó claro.')).toBeTruthy();
    expect(within(items[1]!).getByRole('link', { name: 'Re: Salida pedagógica' }).getAttribute('href')).toBe('/inbox/message/95');
  });
});

const ROSA = { id: 8, name: 'Rosa Díaz Soto', kind: 'apoderado' as const };
const PEDRO = { id: 9, name: 'Pedro Núñez Rojas', kind: 'apoderado' as const };
const PEDRO_OF = [{ student: 'Ana Núñez Núñez', course: 'I Medio B', relationship: 'Padre' }];
const thread = (
  id: number,
  folder: 'inbox' | 'sent',
  sender: typeof ROSA | { id: number; name: string; kind: 'funcionario' },
  content: string,
) => ({
  id,
  folder,
  title: 'Re: Salida pedagógica',
  content,
  sender,
  sender_of: sender.id === ROSA.id ? ROSA_OF : sender.id === PEDRO.id ? PEDRO_OF : [],
  date: `2026-03-0${(id % 7) + 1}T12:00:00Z`,
});
const ANA = { id: 3, name: 'Ana Pérez', kind: 'funcionario' as const };
const ROSA_THREAD = [thread(91, 'inbox', ROSA, '¿Hay que llevar almuerzo?'), thread(92, 'sent', ANA, 'Sí, almuerzo frío.')];
const PEDRO_THREAD = [thread(95, 'inbox', PEDRO, 'Gracias, quedó claro.')];
const TO_COURSE = messageDetail({
  id: 80,
  folder: 'sent',
  kind: 'sent',
  title: 'Salida pedagógica',
  content: LONG,
  sender: ANA,
  allow_replies: true,
  thread: [...ROSA_THREAD, ...PEDRO_THREAD],
  conversations: [
    { guardian: ROSA, guardian_of: ROSA_OF, messages: ROSA_THREAD, answer_to: 91 },
    { guardian: PEDRO, guardian_of: PEDRO_OF, messages: PEDRO_THREAD, answer_to: 95 },
  ],
});

describe.each(RENDER_MODES)("a message to a course, each family's thread apart (%s)", (_mode, wrap) => {
  it("shows each family's conversation once, with a way to answer that family", async () => {
    api.script['GET /messages/80'] = [json(200, { data: TO_COURSE })];
    const { hook } = memoryLocation({ path: '/sent/message/80' });
    render(
      wrap(
        <Router hook={hook}>
          <MessagePage folder="sent" id={80} />
        </Router>,
      ),
    );
    const answers = await screen.findByRole('region', { name: 'Respuestas de las familias' });
    expect(within(answers).getByText('2 familias respondieron este mensaje. Cada conversación es solo con esa familia.')).toBeTruthy();
    const rosa = within(answers).getByRole('region', { name: /Conversación con Rosa Díaz Soto/ });
    expect(
      within(rosa)
        .getAllByRole('article')
        .map((a) => a.querySelector('[data-slot=thread-content]')?.textContent),
    ).toEqual(['¿Hay que llevar almuerzo?', 'Sí, almuerzo frío.']);
    expect(within(rosa).getByRole('link', { name: 'Responder a Rosa Díaz Soto' }).getAttribute('href')).toBe('/new?reply=91');
    const pedro = within(answers).getByRole('region', { name: /Conversación con Pedro Núñez Rojas/ });
    expect(within(pedro).getAllByRole('article')).toHaveLength(1);
    expect(within(pedro).getByRole('link', { name: 'Responder a Pedro Núñez Rojas' }).getAttribute('href')).toBe('/new?reply=95');
    // Each message once: no flat conversation repeats them.
    expect(screen.queryByRole('region', { name: 'Conversación' })).toBeNull();
  });
});
