// The compose screen's wiring (under StrictMode and without it): the real compose and
// picker machines and services over a scripted fetch. Field errors are bound with aria-invalid and
// aria-describedby (a refused send focuses the first), the SMS counter follows the text, the picker
// dialog opens, closes with Escape (focus back on its button) and hands its picks to the form, and a
// file uploads with its progress.
import { StrictMode, type ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { es, mx } from '../fixtures/texts';
import type { Recipients } from '../../shared/compose-contract';
import type { RecipientList } from '../../shared/recipient-lists-contract';
import { ComposeScreen } from '../../src/views/pages/compose/compose-page';
import { json, installFakeFetch } from '../fixtures/fake-fetch';
import { channelList, channelPermissions, composeDraft, estimate, quota, sendResult, signature } from '../fixtures/compose';
import { attachmentSummary } from '../fixtures/messages';
import { recipientCourse, recipientGuardian, recipientStaff } from '../fixtures/recipients';
import { startApp } from './app';
import { sessionActor } from '../../src/views/actors';
import { selectIsLoggedIn } from '../../src/machines/session/selectors';
import { ADMIN, TEACHER } from '../fixtures/users';
import type { SignedInUser } from '../../shared/contract';
import { FakeXhr } from '../fixtures/fake-xhr';

// WhatsApp is off at the school; 4880 of 5000 SMS left.
const CHANNELS = channelList(['whatsapp']);
const QUOTA = quota(5000, 120);
/** Course 30 of level 3: Tomás's titular has the app, Ana's has no usable number. */
const STUDENTS = [
  { id: 301, name: 'Tomás Núñez' },
  { id: 302, name: 'Ana Pérez' },
];
const GUARDIANS = [
  recipientGuardian(901, 301, 'Carolina Núñez', 1, 'blue', '+56991234567'),
  recipientGuardian(902, 302, 'Jorge Pérez', 1, 'red', '+56991234567'),
];
/** That course, an empty elective and one colleague. */
const RECIPIENTS: Recipients = {
  levels: [{ id: 3, nombre: '3° Básico', course_ids: [30] }],
  courses: [recipientCourse(30, '3° Básico A', 3, STUDENTS, GUARDIANS), recipientCourse(90, 'Taller de Cerámica', null)],
  appointments: [
    { id: 7, nombre: 'Profesor jefe', users: [recipientStaff(70, 'Marcela Soto', 7, { email: 'msoto@sanandres.cl', login_user_id: 5 })] },
  ],
};

const ESTIMATE = estimate(2);
const DRAFT = composeDraft(5, {
  title: 'Salida pedagógica',
  content: 'Traer autorización firmada.',
  recipients: [{ kind: 'course', id: 30, audience: 'titulares', label: '3° Básico A' }],
  allow_replies: true,
  updated_at: '2026-11-20T12:00:00.000Z',
});

/** Per-test answers for `METHOD /path`, each a queue (the last one repeats); the setup calls are fixed. */
let script: Record<string, Response[]> = {};
/** The whole directory's answer, when a test holds it back (a large school on a slow network). */
let heldDirectory: Promise<Response> | null = null;
const fake = installFakeFetch();
fake.answer = (url: string) => {
  const path = new URL(url, 'http://localhost').pathname.replace(/^\/api/, '');
  const method = fake.requests.at(-1)?.method ?? 'GET';
  const queue = script[`${method} ${path}`];
  if (queue?.length) return (queue.length > 1 ? queue.shift() : queue[0]?.clone()) as Response;
  if (path === '/channels') return json(200, { data: CHANNELS });
  if (path === '/communication-permission/user') return json(200, { data: channelPermissions() });
  if (path === '/institutions-signatures') return json(200, { data: [signature()] });
  if (path === '/quota') return json(200, { data: QUOTA });
  if (path === '/recipients') return heldDirectory ?? json(200, { data: RECIPIENTS });
  return json(404, { message: 'No encontrado', code: 'not_found' });
};

beforeAll(startApp);
afterEach(() => {
  cleanup();
  localStorage.clear();
  script = {};
  heldDirectory = null;
  history.replaceState(null, '', '/');
});

const modes: Array<[string, (node: ReactNode) => ReactNode]> = [
  ['StrictMode', (node) => <StrictMode>{node}</StrictMode>],
  ['plain', (node) => node],
];

async function renderCompose(wrap: (node: ReactNode) => ReactNode, draftId: number | null = null) {
  const { hook } = memoryLocation({ path: '/new' });
  render(
    wrap(
      <Router hook={hook}>
        <ComposeScreen draftId={draftId} replyToId={null} backupKey={`compose:1:${draftId ?? 'new'}`} />
      </Router>,
    ),
  );
  // The form replaces the skeleton once channels, permissions, signature and quota have arrived.
  const title = await screen.findByLabelText(es.compose.field.title);
  return title as HTMLInputElement;
}

const describedText = (element: HTMLElement): string =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id))
    .filter((node): node is HTMLElement => node?.getAttribute('role') === 'alert')
    .map((node) => node.textContent)
    .join(' ');

/** Every text an element is described by, in order. */
const descriptionOf = (element: HTMLElement): string =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

/** Title, the course 3° Básico A through the picker, the given channel and a short text. */
async function fillValidForm(title: HTMLInputElement, channel: string) {
  await act(async () => fireEvent.change(title, { target: { value: 'Reunión de apoderados' } }));
  await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.field.addRecipients })));
  const dialog = await screen.findByRole('dialog', { name: es.compose.picker.title });
  await act(async () => fireEvent.click(await within(dialog).findByRole('checkbox', { name: '3° Básico A' })));
  await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: es.compose.picker.confirm })));
  await act(async () =>
    fireEvent.click(within(screen.getByRole('group', { name: es.compose.field.channels })).getByRole('checkbox', { name: channel })),
  );
  await act(async () => fireEvent.change(screen.getByLabelText(es.compose.field.content), { target: { value: 'El jueves a las 18:30.' } }));
}

const posts = (path: string) => fake.requests.filter((r) => r.method === 'POST' && r.url.endsWith(path));

describe.each(modes)('compose screen (%s)', (_mode, wrap) => {
  it('send with nothing filled binds the SPEC texts to their fields with aria-invalid; typing clears one', async () => {
    const title = await renderCompose(wrap);
    expect(screen.queryByRole('alert')).toBeNull();
    const send = screen.getByRole('button', { name: es.compose.actions.send });
    await act(async () => fireEvent.click(send));

    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(title)).toBe('Debes elegir un Título');
    const pickerButton = screen.getByRole('button', { name: es.compose.field.addRecipients });
    expect(pickerButton.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(pickerButton)).toBe('Debes elegir uno o más Destinatarios');
    const content = screen.getByLabelText(es.compose.field.content);
    expect(content.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(content)).toBe(es.compose.errors.contentRequired);
    expect(screen.getByText(es.compose.errors.channelsRequired).getAttribute('role')).toBe('alert');
    // Keyboard users land on the first field to fix.
    await waitFor(() => expect(document.activeElement).toBe(title));
    // Nothing was sent: only the setup and recipients were fetched.
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);

    await act(async () => fireEvent.change(title, { target: { value: 'Reunión de apoderados' } }));
    expect(title.getAttribute('aria-invalid')).toBeNull();
    expect(title.value).toBe('Reunión de apoderados');
    expect(pickerButton.getAttribute('aria-invalid')).toBe('true');
  });

  it('shows the live SMS counter with the signature discount, the accent rule and refused characters', async () => {
    await renderCompose(wrap);
    expect(document.querySelector('[data-slot=sms-counter]')).toBeNull();
    const channels = screen.getByRole('group', { name: es.compose.field.channels });
    // WhatsApp is not enabled by the school: not offered at all.
    expect(within(channels).queryByRole('checkbox', { name: es.messages.channel.whatsapp })).toBeNull();
    await act(async () => fireEvent.click(within(channels).getByRole('checkbox', { name: es.messages.channel.sms })));

    const content = screen.getByLabelText(es.compose.field.content);
    await act(async () => fireEvent.change(content, { target: { value: 'Reunión mañana' } }));
    const counter = document.querySelector('[data-slot=sms-counter]');
    expect(counter?.textContent).toBe('14/154 caracteres SMS');
    expect(content.getAttribute('aria-describedby')).toContain(counter?.id);
    expect(screen.getByText(es.compose.sms.accents)).toBeTruthy();
    expect(screen.getByText(/La firma del colegio ocupa 6 caracteres/)).toBeTruthy();
    expect(screen.getByText(/«CSA»/)).toBeTruthy();

    await act(async () => fireEvent.change(content, { target: { value: 'Reunión 🎉' } }));
    expect(counter?.textContent).toBe('8/154 caracteres SMS');
    expect(screen.getByText('Estos caracteres no se pueden enviar por SMS: 🎉')).toBeTruthy();
  });

  it('the picker dialog opens from its button, closes with Escape, and confirms a course into a chip', async () => {
    await renderCompose(wrap);
    const open = screen.getByRole('button', { name: es.compose.field.addRecipients });
    open.focus();
    await act(async () => fireEvent.click(open));
    const dialog = await screen.findByRole('dialog', { name: es.compose.picker.title });
    const search = await within(dialog).findByRole('searchbox', { name: es.compose.picker.search });
    expect(document.activeElement).toBe(search);
    expect(within(dialog).getByRole('tab', { name: es.compose.picker.tabs.students, selected: true })).toBeTruthy();
    // The level, the course, the elective, each student with their family, the guardians.
    expect(within(dialog).getByText('Mostrando 9 de 9')).toBeTruthy();
    // The empty elective is flagged, and guardians carry their device colour with a name.
    const ceramica = within(dialog).getByRole('checkbox', { name: 'Taller de Cerámica' }).closest('li') as HTMLElement;
    expect(within(ceramica).getByText(es.compose.emptyCourse)).toBeTruthy();
    expect(within(dialog).getAllByRole('img', { name: es.device.status.blue })).toHaveLength(1);
    expect(within(dialog).getAllByRole('img', { name: es.device.status.red })).toHaveLength(1);

    await act(async () => fireEvent.keyDown(document.activeElement ?? search, { key: 'Escape' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    // Radix hands focus back on the next tick.
    await waitFor(() => expect(document.activeElement).toBe(open));

    await act(async () => fireEvent.click(open));
    const again = await screen.findByRole('dialog', { name: es.compose.picker.title });
    await act(async () => fireEvent.change(within(again).getByRole('searchbox'), { target: { value: 'basico a' } }));
    expect(within(again).getByText('Mostrando 1 de 1')).toBeTruthy();
    await act(async () => fireEvent.click(within(again).getByRole('checkbox', { name: '3° Básico A' })));
    await act(async () => fireEvent.click(within(again).getByRole('button', { name: es.compose.picker.confirm })));

    expect(screen.queryByRole('dialog')).toBeNull();
    const chips = screen.getByRole('list', { name: es.compose.field.recipients });
    expect(within(chips).getByRole('listitem').textContent).toContain('3° Básico A · apoderados');
    // Approximate reach from the picker's index: the two guardians of the course.
    expect(screen.getByText('2 personas seleccionadas (aprox.)')).toBeTruthy();

    // A group with no students is flagged on its chip too.
    const edit = screen.getByRole('button', { name: es.compose.field.editRecipients });
    await act(async () => fireEvent.click(edit));
    const third = await screen.findByRole('dialog', { name: es.compose.picker.title });
    await act(async () => fireEvent.change(within(third).getByRole('searchbox'), { target: { value: 'ceramica' } }));
    await act(async () => fireEvent.click(within(third).getByRole('checkbox', { name: 'Taller de Cerámica' })));
    await act(async () => fireEvent.click(within(third).getByRole('button', { name: es.compose.picker.confirm })));
    const items = within(screen.getByRole('list', { name: es.compose.field.recipients })).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-empty'))).toEqual([null, 'true']);
    expect(within(items[1] as HTMLElement).getByText(es.compose.emptyCourse)).toBeTruthy();
  });

  it("opens on the levels and courses while the school's people are on their way, and picks once they arrive", async () => {
    let release: (answer: Response) => void = () => undefined;
    heldDirectory = new Promise<Response>((resolve) => {
      release = resolve;
    });
    const groups = RECIPIENTS.courses.map(({ id, nombre, grupo_type, level_id }) => ({ id, nombre, grupo_type, level_id }));
    script = { 'GET /recipients/courses': [json(200, { data: { levels: RECIPIENTS.levels, courses: groups } })] };
    await renderCompose(wrap);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.field.addRecipients })));
    const dialog = await screen.findByRole('dialog', { name: es.compose.picker.title });
    // Usable at once: the search box (with the caret), the tabs and the level, the course and the elective.
    const search = (await within(dialog).findByRole('searchbox', { name: es.compose.picker.search })) as HTMLInputElement;
    expect(document.activeElement).toBe(search);
    expect(within(dialog).getByText(es.compose.picker.loadingPeople)).toBeTruthy();
    expect(within(dialog).getByText('Mostrando 3 de 3')).toBeTruthy();
    // Picking, sizes, empty courses and the saved lists wait for the people.
    const course = within(dialog).getByRole('checkbox', { name: '3° Básico A' }) as HTMLButtonElement;
    expect(course.disabled).toBe(true);
    expect(within(dialog).queryByText(es.compose.emptyCourse)).toBeNull();
    expect(within(dialog).getByRole('tab', { name: es.compose.picker.tabs.lists }).hasAttribute('disabled')).toBe(true);
    await act(async () => fireEvent.change(search, { target: { value: 'ceramica' } }));
    expect(within(dialog).getByText('Mostrando 1 de 1')).toBeTruthy();

    await act(async () => release(json(200, { data: RECIPIENTS })));
    await waitFor(() => expect(within(dialog).queryByText(es.compose.picker.loadingPeople)).toBeNull());
    // What was typed meanwhile stays, now searched among the people too.
    expect(search.value).toBe('ceramica');
    const ceramica = within(dialog).getByRole('checkbox', { name: 'Taller de Cerámica' }) as HTMLButtonElement;
    expect(ceramica.disabled).toBe(false);
    expect(within(ceramica.closest('li') as HTMLElement).getByText(es.compose.emptyCourse)).toBeTruthy();
  });

  it("a student's name finds their family: one pick that reaches the student's guardians, named on its chip", async () => {
    script = { 'POST /messages/estimate': [json(200, { data: estimate(1) })] };
    const title = await renderCompose(wrap);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.field.addRecipients })));
    const dialog = await screen.findByRole('dialog', { name: es.compose.picker.title });
    const search = await within(dialog).findByRole('searchbox', { name: es.compose.picker.search });
    // The role control says who receives what is marked.
    const who = within(dialog).getByRole('combobox', { name: es.compose.picker.audience.label });
    expect(document.getElementById(who.getAttribute('aria-describedby') ?? '')?.textContent).toBe(es.compose.picker.audience.help.all);

    // «Todos»: the student herself, and her family next to her.
    await act(async () => fireEvent.change(search, { target: { value: 'ana perez' } }));
    expect(within(dialog).getByRole('checkbox', { name: 'Ana Pérez' })).toBeTruthy();
    const family = within(dialog).getByRole('checkbox', { name: 'Apoderados de Ana Pérez' });
    expect(descriptionOf(family)).toContain('3° Básico A');

    // «Apoderados»: only the family; the help says a marked student reaches her guardians.
    await act(async () => fireEvent.change(who, { target: { value: 'apoderados' } }));
    expect(document.getElementById(who.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      es.compose.picker.audience.help.apoderados,
    );
    expect(within(dialog).queryByRole('checkbox', { name: 'Ana Pérez' })).toBeNull();
    await act(async () => fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Apoderados de Ana Pérez' })));
    // Ana's one guardian, Jorge Pérez.
    expect(within(dialog).getByText('· 1 persona seleccionada (aprox.)')).toBeTruthy();
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: es.compose.picker.confirm })));

    const chips = screen.getByRole('list', { name: es.compose.field.recipients });
    expect(within(chips).getByRole('listitem').textContent).toContain('Apoderados de Ana Pérez (3° Básico A)');
    await act(async () =>
      fireEvent.click(
        within(screen.getByRole('group', { name: es.compose.field.channels })).getByRole('checkbox', {
          name: es.messages.channel['e-mail'],
        }),
      ),
    );
    await act(async () => fireEvent.change(title, { target: { value: 'Reunión' } }));
    await act(async () => fireEvent.change(screen.getByLabelText(es.compose.field.content), { target: { value: 'Hola' } }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.actions.send })));
    await screen.findByRole('alertdialog', { name: es.compose.confirm.sendTitle });
    // What the server expands: the student with the guardians' audience.
    expect(posts('/messages/estimate')[0]?.body).toMatchObject({ recipients: [{ kind: 'student', id: 302, audience: 'apoderados' }] });
  });

  it("a person row says enough to tell namesakes apart: a student's course, a guardian's child and the child's course", async () => {
    await renderCompose(wrap);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.field.addRecipients })));
    const dialog = await screen.findByRole('dialog', { name: es.compose.picker.title });
    const search = await within(dialog).findByRole('searchbox', { name: es.compose.picker.search });
    await act(async () => fireEvent.change(search, { target: { value: 'tomas' } }));
    const student = within(dialog).getByRole('checkbox', { name: 'Tomás Núñez' });
    expect(descriptionOf(student)).toContain('3° Básico A');
    await act(async () => fireEvent.change(search, { target: { value: 'carolina' } }));
    const guardian = within(dialog).getByRole('checkbox', { name: 'Carolina Núñez' });
    expect(descriptionOf(guardian)).toContain('Titular de Tomás Núñez · 3° Básico A');
  });

  it('the saved lists load when their tab opens, Cargar más appends the next page, a failed page says so and is asked again', async () => {
    const listPage = (page: number, data: RecipientList[]) => ({
      data,
      meta: { current_page: page, last_page: 2, per_page: 1, total: 2 },
      links: { next: page === 1 ? '/api/recipient-lists?page=2' : null, prev: null },
    });
    script = {
      'GET /recipient-lists': [
        json(200, listPage(1, [{ id: 1, name: 'Centro de Padres', users_count: 12 }])),
        json(500, { message: 'Error interno', code: 'server.error' }),
        json(200, listPage(2, [{ id: 2, name: 'Directiva', users_count: 5 }])),
      ],
    };
    await renderCompose(wrap);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.field.addRecipients })));
    const dialog = await screen.findByRole('dialog', { name: es.compose.picker.title });
    const listRequests = () =>
      fake.requests.filter((r) => r.url.includes('/recipient-lists')).map((r) => new URL(r.url, 'http://x').searchParams.get('page'));
    // Not asked for before the tab opens.
    expect(listRequests()).toEqual([]);
    await act(async () => fireEvent.mouseDown(within(dialog).getByRole('tab', { name: es.compose.picker.tabs.lists }), { button: 0 }));
    expect(await within(dialog).findByRole('checkbox', { name: 'Centro de Padres' })).toBeTruthy();
    expect(listRequests()).toEqual(['1']);

    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: es.compose.picker.moreLists })));
    // The page failed: the lists shown stay, the failure is said, and Reintentar asks for that page again.
    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain(es.compose.picker.listsFailed);
    expect(within(dialog).getByRole('checkbox', { name: 'Centro de Padres' })).toBeTruthy();
    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: es.compose.retry })));
    expect(await within(dialog).findByRole('checkbox', { name: 'Directiva' })).toBeTruthy();
    expect(listRequests()).toEqual(['1', '2', '2']);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    expect(within(dialog).queryByRole('button', { name: es.compose.picker.moreLists })).toBeNull();
  });

  it('going back from the confirmation (Volver a editar or Escape) keeps everything and puts focus back on Enviar', async () => {
    script = { 'POST /messages/estimate': [json(200, { data: ESTIMATE })] };
    const title = await renderCompose(wrap);
    await fillValidForm(title, es.messages.channel['e-mail']);
    const sendButton = () => screen.getByRole('button', { name: es.compose.actions.send });
    await act(async () => fireEvent.click(sendButton()));
    let confirm = await screen.findByRole('alertdialog', { name: es.compose.confirm.sendTitle });
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: es.compose.confirm.back })));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(title.value).toBe('Reunión de apoderados');
    await waitFor(() => expect(document.activeElement).toBe(sendButton()));

    await act(async () => fireEvent.click(sendButton()));
    confirm = await screen.findByRole('alertdialog', { name: es.compose.confirm.sendTitle });
    await act(async () => fireEvent.keyDown(within(confirm).getByRole('button', { name: es.compose.confirm.send }), { key: 'Escape' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(sendButton()));
    expect(posts('/messages/send')).toHaveLength(0);
  });

  it('a failed send keeps everything typed; Reintentar sends the same message again', async () => {
    script = {
      'POST /messages/estimate': [json(200, { data: ESTIMATE })],
      'POST /messages/send': [json(500, { message: 'Error interno', code: 'server.error' }), json(201, { data: sendResult(77) })],
    };
    const title = await renderCompose(wrap);
    await fillValidForm(title, es.messages.channel['e-mail']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.actions.send })));

    // The estimate is shown first; nothing is sent until it is confirmed.
    const confirm = await screen.findByRole('alertdialog', { name: es.compose.confirm.sendTitle });
    expect(screen.getByText('Llegará a 2 personas.')).toBeTruthy();
    expect(posts('/messages/send')).toHaveLength(0);
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: es.compose.confirm.send })));

    const failed = await screen.findByText(es.error.send);
    const alert = failed.closest('[role=alert]') as HTMLElement;
    expect(within(alert).getByText(es.compose.failedHint)).toBeTruthy();
    expect(title.value).toBe('Reunión de apoderados');
    expect((screen.getByLabelText(es.compose.field.content) as HTMLTextAreaElement).value).toBe('El jueves a las 18:30.');
    expect(posts('/messages/send')).toHaveLength(1);

    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: es.compose.actions.retry })));
    await waitFor(() => expect(location.pathname).toBe('/sent/message/77'));
    const sends = posts('/messages/send');
    expect(sends).toHaveLength(2);
    expect(sends[1]?.body).toEqual(sends[0]?.body);
    expect(sends[0]?.body).toMatchObject({
      title: 'Reunión de apoderados',
      channels: ['e-mail'],
      recipients: [{ kind: 'course', id: 30, audience: 'apoderados' }],
    });
  });

  it('an estimate nobody can be reached on says so and offers no Enviar; then it names who will not get it, and the chips its count', async () => {
    script = {
      'POST /messages/estimate': [
        // By e-mail: neither guardian of the course has an address.
        json(200, {
          data: estimate(2, {
            unreachable: 2,
            channels: [{ code: 'e-mail', deliveries: 0, missing_address: 2, opted_out: 0, blocked: 0 }],
          }),
        }),
        // By e-mail and SMS: one has a phone.
        json(200, {
          data: estimate(2, {
            unreachable: 1,
            channels: [
              { code: 'e-mail', deliveries: 0, missing_address: 2, opted_out: 0, blocked: 0 },
              { code: 'sms', deliveries: 1, missing_address: 1, opted_out: 0, blocked: 0 },
            ],
          }),
        }),
      ],
    };
    const title = await renderCompose(wrap);
    await fillValidForm(title, es.messages.channel['e-mail']);
    const sendButton = () => screen.getByRole('button', { name: es.compose.actions.send }) as HTMLButtonElement;
    await act(async () => fireEvent.click(sendButton()));

    const nobody = await screen.findByText(
      'Nadie recibiría este mensaje: ninguna de las 2 personas elegidas tiene dirección en los canales marcados. Elige otro canal o cambia los destinatarios.',
    );
    expect(nobody.getAttribute('role')).toBe('alert');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByText(/^Llegará a/)).toBeNull();
    // Not offered, and the button says why.
    expect(sendButton().disabled).toBe(true);
    expect(describedText(sendButton())).toBe(nobody.textContent);
    // The chips say the estimate's count now, not the picker's approximation.
    expect(screen.getByText('2 personas seleccionadas')).toBeTruthy();

    // Another channel: offered again, and the estimate says who will not get it.
    await act(async () =>
      fireEvent.click(
        within(screen.getByRole('group', { name: es.compose.field.channels })).getByRole('checkbox', { name: es.messages.channel.sms }),
      ),
    );
    expect(sendButton().disabled).toBe(false);
    await act(async () => fireEvent.click(sendButton()));
    await screen.findByRole('alertdialog', { name: es.compose.confirm.sendTitle });
    expect(screen.getByText('Llegará a 1 persona.')).toBeTruthy();
    expect(screen.getByText('1 persona no lo recibirá: no tiene dirección en ninguno de los canales elegidos.')).toBeTruthy();
    expect(posts('/messages/send')).toHaveLength(0);
  });

  it("the confirmation names the phones that texted BAJA apart from those with no number, per channel, in both countries' words", async () => {
    script = {
      'POST /messages/estimate': [
        json(200, {
          data: estimate(3, {
            unreachable: 0,
            channels: [
              { code: 'e-mail', deliveries: 3, missing_address: 0, opted_out: 0, blocked: 0 },
              { code: 'sms', deliveries: 0, missing_address: 1, opted_out: 2, blocked: 0 },
            ],
          }),
        }),
      ],
    };
    const title = await renderCompose(wrap);
    await fillValidForm(title, es.messages.channel['e-mail']);
    await act(async () =>
      fireEvent.click(
        within(screen.getByRole('group', { name: es.compose.field.channels })).getByRole('checkbox', { name: es.messages.channel.sms }),
      ),
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.actions.send })));
    await screen.findByRole('alertdialog', { name: es.compose.confirm.sendTitle });
    expect(screen.getByText('SMS: 2 se dieron de baja (no se les enviará por ese canal).')).toBeTruthy();
    expect(screen.getByText('SMS: 1 sin dirección (no se enviará por ese canal).')).toBeTruthy();
    expect(mx.compose.estimate.optedOut_one).toBe('{{channel}}: {{count}} se dio de baja (no se le enviará por ese canal).');
  });

  it("the server's refusal of a message nobody can receive (addresses gone since the estimate) lands on Destinatarios; everything typed is kept", async () => {
    const NOBODY = 'Ningún destinatario puede recibir este mensaje por los canales elegidos.';
    script = {
      'POST /messages/estimate': [json(200, { data: ESTIMATE })],
      'POST /messages/send': [
        json(422, { message: 'Los datos enviados no son válidos.', code: 'validation.failed', errors: { recipients: [NOBODY] } }),
      ],
    };
    const title = await renderCompose(wrap);
    await fillValidForm(title, es.messages.channel['e-mail']);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.actions.send })));
    const confirm = await screen.findByRole('alertdialog', { name: es.compose.confirm.sendTitle });
    await act(async () => fireEvent.click(within(confirm).getByRole('button', { name: es.compose.confirm.send })));

    const pickerButton = await screen.findByRole('button', { name: es.compose.field.editRecipients });
    await waitFor(() => expect(describedText(pickerButton)).toBe(NOBODY));
    expect(pickerButton.getAttribute('aria-invalid')).toBe('true');
    expect(title.value).toBe('Reunión de apoderados');
    expect((screen.getByLabelText(es.compose.field.content) as HTMLTextAreaElement).value).toBe('El jueves a las 18:30.');
    expect(location.pathname).not.toMatch(/^\/sent\//);
  });

  it('a quota problem in the estimate blocks the send with the SPEC text and the SMS figures', async () => {
    script = {
      'POST /messages/estimate': [
        json(200, {
          data: {
            ...ESTIMATE,
            channels: [{ code: 'sms', deliveries: 60, missing_address: 3, opted_out: 0, blocked: 0 }],
            sms: { segments_per_message: 1, total: 60, remaining: 10, limit: 5000, reserved: 0, month: '2026-03' },
            email: null,
            problems: ['sms.quota_exceeded'],
          },
        }),
      ],
    };
    const title = await renderCompose(wrap);
    await fillValidForm(title, es.messages.channel.sms);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.actions.send })));

    const quota = await screen.findByText('Cupo mensual de SMS excedido');
    expect(quota.getAttribute('role')).toBe('alert');
    expect(screen.getByText('Este mensaje usará 60 SMS; quedan 10 este mes.')).toBeTruthy();
    expect(screen.getByText('SMS: 3 sin dirección (no se enviará por ese canal).')).toBeTruthy();
    expect(screen.getByRole('button', { name: es.compose.actions.send }).getAttribute('aria-invalid')).toBe('true');
    expect(posts('/messages/send')).toHaveLength(0);
  });

  it('a file the rules refuse says why on the field; an admitted one uploads with its progress and can be removed', async () => {
    FakeXhr.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    script = { 'DELETE /attachments/9': [new Response(null, { status: 204 })] };
    await renderCompose(wrap);
    const input = screen.getByLabelText(es.compose.attachments.choose) as HTMLInputElement;
    await act(async () => fireEvent.change(input, { target: { files: [new File(['MZ'], 'virus.exe')] } }));
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(describedText(input)).toBe(es.compose.attachment.type);
    expect(FakeXhr.sent).toHaveLength(0);

    await act(async () =>
      fireEvent.change(input, { target: { files: [new File(['%PDF-1.4'], 'acta.pdf', { type: 'application/pdf' })] } }),
    );
    expect(input.getAttribute('aria-invalid')).toBeNull();
    const item = within(screen.getByRole('list', { name: es.compose.attachments.list })).getByRole('listitem');
    expect(item.getAttribute('data-status')).toBe('uploading');
    const upload = FakeXhr.sent[0] as FakeXhr;
    await act(async () => upload.upload.onprogress?.({ loaded: 4, total: 8, lengthComputable: true }));
    expect(within(item).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');
    await act(async () => upload.respond(201, { data: attachmentSummary(9, { name: 'acta.pdf', size: 8 }) }));
    expect(item.getAttribute('data-status')).toBe('uploaded');

    await act(async () => fireEvent.click(within(item).getByRole('button', { name: 'Eliminar acta.pdf' })));
    await waitFor(() => expect(screen.queryByRole('list', { name: es.compose.attachments.list })).toBeNull());
    expect(fake.requests.filter((r) => r.method === 'DELETE').map((r) => new URL(r.url, 'http://localhost').pathname)).toEqual([
      '/api/attachments/9',
    ]);
  });

  it('a draft opens with its fields, its chip label and audience, and the draft heading', async () => {
    script = { 'GET /messages/drafts/5': [json(200, { data: DRAFT })] };
    const title = await renderCompose(wrap, 5);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(es.compose.draftHeading);
    expect(title.value).toBe('Salida pedagógica');
    const chips = screen.getByRole('list', { name: es.compose.field.recipients });
    expect(within(chips).getByRole('listitem').textContent).toContain('3° Básico A · apoderados titulares');
    const channels = screen.getByRole('group', { name: es.compose.field.channels });
    expect(within(channels).getByRole('checkbox', { name: es.messages.channel['e-mail'] }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('checkbox', { name: es.compose.options.allowReplies }).getAttribute('aria-checked')).toBe('true');

    // The chip's remove button takes the pick out.
    await act(async () => fireEvent.click(within(chips).getByRole('button', { name: /^Quitar 3° Básico A/ })));
    expect(screen.queryByRole('list', { name: es.compose.field.recipients })).toBeNull();
    expect(screen.getByText(es.compose.field.noRecipients)).toBeTruthy();
  });

  it("the attachments' SMS limit is told only where SMS is offered", async () => {
    const field = () => screen.getByRole('group', { name: es.compose.attachments.label });
    await renderCompose(wrap);
    expect(field().textContent).toContain('Con SMS se permite un solo adjunto.');
    cleanup();
    // A school without SMS (or a sender not allowed it): the limit would be about a channel not there.
    script = { 'GET /channels': [json(200, { data: channelList(['whatsapp', 'sms']) })] };
    await renderCompose(wrap);
    expect(within(screen.getByRole('group', { name: es.compose.field.channels })).queryByRole('checkbox', { name: 'SMS' })).toBeNull();
    expect(field().textContent).toContain('Hasta 22 MB por archivo y 22 MB en total.');
    expect(field().textContent).not.toContain('SMS');
  });

  it('a failed start shows the load error, and Reintentar loads the form', async () => {
    script = { 'GET /channels': [json(500, { message: 'Error interno', code: 'server.error' }), json(200, { data: CHANNELS })] };
    const { hook } = memoryLocation({ path: '/new' });
    render(
      wrap(
        <Router hook={hook}>
          <ComposeScreen draftId={null} replyToId={null} backupKey="compose:1:new" />
        </Router>,
      ),
    );
    const failed = await screen.findByText(es.compose.loadFailed);
    expect(screen.queryByLabelText(es.compose.field.title)).toBeNull();
    await act(async () =>
      fireEvent.click(within(failed.closest('[role=alert]') as HTMLElement).getByRole('button', { name: es.compose.retry })),
    );
    expect(await screen.findByLabelText(es.compose.field.title)).toBeTruthy();
    expect(screen.queryByText(es.compose.loadFailed)).toBeNull();
  });

  describe('the SMS quota', () => {
    /** 310 of 5,000 SMS left, 500 kept for emergencies, under the school's 10 % alert. */
    const LOW = quota(5000, 4690, { sms: { reserved: 500, low: true } });

    async function signIn(user: SignedInUser) {
      // The sign-in's answer says who signed in, with their policies.
      script['POST /login'] = [
        json(200, {
          data: { token_expires_at: Date.now() + 3_600_000, refresh_expires_at: Date.now() + 7_200_000 },
          user: user,
          policies: ['hermes-acceder-sistema'],
        }),
      ];
      await act(async () => sessionActor.send({ type: 'session.login', email: user.email, password: 'Hermes.2026' }));
      await waitFor(() => expect(selectIsLoggedIn(sessionActor.getSnapshot())).toBe(true));
    }
    afterEach(async () => {
      script = { 'GET /logout': [json(200, {})] };
      await act(async () => sessionActor.send({ type: 'session.logout' }));
      await waitFor(() => expect(selectIsLoggedIn(sessionActor.getSnapshot())).toBe(false));
    });

    it('an administrator sees the low-quota banner with the figures and a link to the quota settings', async () => {
      await signIn(ADMIN);
      script['GET /quota'] = [json(200, { data: LOW })];
      await renderCompose(wrap);
      const banner = screen.getByRole('status', { name: es.compose.quotaLow.label });
      expect(banner.textContent).toContain('Quedan 310 SMS de 5.000 este mes (6 %)');
      const link = within(banner).getByRole('link', { name: es.compose.quotaLow.link });
      expect(link.getAttribute('href')).toBe('/settings/message-quota');
    });

    it('no banner for a teacher, nor for an administrator while the quota is not low', async () => {
      await signIn(TEACHER);
      script['GET /quota'] = [json(200, { data: LOW })];
      await renderCompose(wrap);
      expect(screen.queryByRole('status', { name: es.compose.quotaLow.label })).toBeNull();
      cleanup();
      await act(async () => sessionActor.send({ type: 'session.logout' }));
      await signIn(ADMIN);
      script['GET /quota'] = [json(200, { data: quota(5000, 120) })];
      await renderCompose(wrap);
      expect(screen.queryByRole('status', { name: es.compose.quotaLow.label })).toBeNull();
    });

    it('an estimate of another month (a message scheduled for it) names that month instead of «este mes»', async () => {
      script['GET /quota'] = [json(200, { data: LOW })];
      const sms = { segments_per_message: 1, total: 60, remaining: 4000, limit: 5000, reserved: 0, month: '2026-04' };
      script['POST /messages/estimate'] = [
        json(200, {
          data: {
            ...ESTIMATE,
            channels: [{ code: 'sms', deliveries: 60, missing_address: 0, opted_out: 0, blocked: 0 }],
            sms,
            email: null,
            problems: [],
          },
        }),
      ];
      const title = await renderCompose(wrap);
      await fillValidForm(title, es.messages.channel.sms);
      await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.actions.send })));
      expect(
        await screen.findByText(
          'Este mensaje usará 60 SMS de la cuota de abril de 2026, el mes en que se enviará; para ese mes quedan 4.000.',
        ),
      ).toBeTruthy();
      expect(screen.queryByText(/quedan 4\.?000 este mes/)).toBeNull();
    });

    it('the Emergencia mark explains itself; a normal SMS is refused with the reserve text, then goes marked', async () => {
      script['GET /quota'] = [json(200, { data: LOW })];
      const sms = { segments_per_message: 1, total: 60, remaining: 310, limit: 5000, reserved: 500, month: '2026-03' };
      script['POST /messages/estimate'] = [
        json(200, {
          data: {
            ...ESTIMATE,
            channels: [{ code: 'sms', deliveries: 60, missing_address: 0, opted_out: 0, blocked: 0 }],
            sms,
            email: null,
            problems: ['sms.reserve_only_emergency'],
          },
        }),
        json(200, {
          data: {
            ...ESTIMATE,
            channels: [{ code: 'sms', deliveries: 60, missing_address: 0, opted_out: 0, blocked: 0 }],
            sms,
            email: null,
            problems: [],
          },
        }),
      ];
      const title = await renderCompose(wrap);
      await fillValidForm(title, es.messages.channel.sms);
      expect(screen.getByText(es.compose.estimate.reserveOnly)).toBeTruthy();
      const mark = screen.getByRole('checkbox', { name: es.compose.options.emergency });
      expect(mark.getAttribute('aria-checked')).toBe('false');
      expect(document.getElementById(mark.getAttribute('aria-describedby') ?? '')?.textContent).toBe(es.compose.options.emergencyHint);

      await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.actions.send })));
      const refusal = await screen.findByText(
        'Quedan 310 SMS este mes, reservados para mensajes de emergencia. Marca el mensaje como Emergencia si lo es, o espera al próximo mes.',
        { selector: '[role=alert]' },
      );
      expect(refusal).toBeTruthy();
      expect(posts('/messages/send')).toHaveLength(0);
      expect(posts('/messages/estimate').at(-1)?.body).toMatchObject({ emergency: false });

      await act(async () => fireEvent.click(mark));
      expect(mark.getAttribute('aria-checked')).toBe('true');
      expect(screen.queryByText(refusal.textContent ?? '', { selector: '[role=alert]' })).toBeNull();
      expect(screen.getByText(es.compose.estimate.reserveEmergency)).toBeTruthy();
      await act(async () => fireEvent.click(screen.getByRole('button', { name: es.compose.actions.send })));
      await screen.findByRole('button', { name: es.compose.confirm.send });
      expect(posts('/messages/estimate').at(-1)?.body).toMatchObject({ emergency: true, channels: ['sms'] });
    });
  });
});
