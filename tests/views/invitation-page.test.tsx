// /invitation/:token (under StrictMode and without it): the real machine over a scripted API and the real
// password rule (loaded on its own). The greeting with the name and school; the rule's Spanish reason while
// typing; the confirmation that differs; the server's refusal kept beside what was typed; a used link's page.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES } from '../../shared/password-rules';
import { InvitationPage } from '../../src/views/pages/staff/invitation-page';
import { json } from '../fixtures/fake-fetch';
import { text } from '../fixtures/texts';
import { RENDER_MODES, setUpScreenTest } from './screen-test';

const api = setUpScreenTest();
const INFO = {
  name: 'Pedro Nuevo',
  email: 'pedro.nuevo@sanandres.cl',
  school: 'Colegio San Andrés',
  expires_at: '2026-03-09T12:00:00.000Z',
};
const STRONG = 'Cometa azul sobre el Elqui 77';

describe.each(RENDER_MODES)('invitation page (%s)', (_mode, wrap) => {
  const renderPage = () => render(wrap(<InvitationPage token="tok123" />));

  it("greets the person, says the rule's reason while typing, and keeps the server's refusal with what was typed", async () => {
    api.script['GET /invitations/tok123'] = [json(200, { data: INFO })];
    api.script['POST /invitations/tok123/accept'] = [
      json(422, { message: 'Revisa', code: 'validation.failed', errors: { password: [PASSWORD_MESSAGES.common] } }),
    ];
    renderPage();
    expect(await screen.findByText(text('invitation.greeting', { name: INFO.name, school: INFO.school }))).toBeTruthy();
    const password = screen.getByLabelText(text('invitation.password')) as HTMLInputElement;
    const confirm = screen.getByLabelText(text('invitation.confirm')) as HTMLInputElement;
    fireEvent.change(password, { target: { value: 'corta' } });
    expect(await screen.findByText(PASSWORD_MESSAGES.tooShort, {}, { timeout: 5000 })).toBeTruthy();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(password, { target: { value: STRONG } });
    await waitFor(() => expect(screen.queryByText(PASSWORD_MESSAGES.tooShort)).toBeNull());
    fireEvent.change(confirm, { target: { value: `${STRONG}!` } });
    expect(screen.getByText(text('invitation.mismatch'))).toBeTruthy();
    fireEvent.change(confirm, { target: { value: STRONG } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: text('invitation.submit') })));
    expect(await screen.findByText(PASSWORD_MESSAGES.common)).toBeTruthy();
    expect([password.value, confirm.value]).toEqual([STRONG, STRONG]);
    expect(api.calls('POST', '/invitations/tok123/accept').map((request) => request.body)).toEqual([{ password: STRONG }]);
  });

  it('says a used link was used, and offers the way to sign in', async () => {
    api.script['GET /invitations/tok123'] = [json(410, { message: 'Esta invitación ya se usó.', code: 'invitation.used' })];
    renderPage();
    expect(await screen.findByText(text('invitation.used.title'))).toBeTruthy();
    expect(screen.getByRole('link', { name: text('invitation.toLogin') }).getAttribute('href')).toBe('/login');
    expect(screen.queryByLabelText(text('invitation.password'))).toBeNull();
  });
});
