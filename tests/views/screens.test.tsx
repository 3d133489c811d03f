// Views under StrictMode and without it: the screens render from the real app actors and
// send events; double mounting must not create a second actor or lose what the user typed.
import { StrictMode, type ReactNode } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { es } from '../fixtures/texts';
import { sessionActor } from '../../src/views/actors';
import { startApp } from './app';
import { ErrorPage } from '../../src/views/pages/app/error-page';
import { LoginPage } from '../../src/views/pages/session/login-page';

beforeAll(startApp);
afterEach(cleanup);

const modes: Array<[string, (node: ReactNode) => ReactNode]> = [
  ['StrictMode', (node) => <StrictMode>{node}</StrictMode>],
  ['plain', (node) => node],
];

describe.each(modes)('screens (%s)', (_mode, wrap) => {
  it('login: empty submit shows both field errors bound to aria-invalid, typing clears one', async () => {
    const { hook } = memoryLocation({ path: '/login' });
    render(
      wrap(
        <Router hook={hook}>
          <LoginPage />
        </Router>,
      ),
    );
    const email = screen.getByLabelText(es.login.email);
    const password = screen.getByLabelText(es.login.password);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.login.submit })));

    expect(screen.getByText(es.login.errors.emailRequired).getAttribute('role')).toBe('alert');
    expect(screen.getByText(es.login.errors.passwordRequired)).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(sessionActor.getSnapshot().context.fieldErrors).toEqual({
      email: 'login.errors.emailRequired',
      password: 'login.errors.passwordRequired',
    });

    await act(async () => fireEvent.change(email, { target: { value: 'ana@' } }));
    expect(email.getAttribute('aria-invalid')).toBeNull();
    expect(password.getAttribute('aria-invalid')).toBe('true');
    // What the user typed stays in the field.
    expect((email as HTMLInputElement).value).toBe('ana@');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.login.submit })));
    expect(screen.getByText(es.login.errors.emailInvalid)).toBeTruthy();
    expect((email as HTMLInputElement).value).toBe('ana@');
  });

  it('404: exact texts, both buttons and a countdown that can be stopped', async () => {
    render(wrap(<ErrorPage code={404} />));
    expect(screen.getByText('Error 404')).toBeTruthy();
    expect(screen.getByRole('heading', { name: es.error.notFoundTitle })).toBeTruthy();
    expect(screen.getByText(es.error.notFoundBody)).toBeTruthy();
    expect(screen.getByRole('button', { name: es.error.back })).toBeTruthy();
    expect(screen.getByRole('button', { name: es.error.home })).toBeTruthy();
    expect(screen.getByText(/Te llevaremos a Recibidos en 10 s/)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: es.error.stay })));
    expect(screen.queryByText(/Te llevaremos a Recibidos/)).toBeNull();
  });

  it('500: the server title and the message, no back button', () => {
    render(wrap(<ErrorPage code={503} message="Servicio en mantención" />));
    expect(screen.getByText('Error 503')).toBeTruthy();
    expect(screen.getByRole('heading', { name: es.error.serverTitle })).toBeTruthy();
    expect(screen.getByText('Servicio en mantención')).toBeTruthy();
    expect(screen.queryByRole('button', { name: es.error.back })).toBeNull();
  });
});
