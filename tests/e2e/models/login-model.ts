// Abstract model of the login flow as the browser sees it. Deliberately tiny and
// independent from src/machines: it states what the user should observe, not how the app is built.
import { setup } from 'xstate';

export type LoginModelEvent = { type: 'login.submitWrongPassword' } | { type: 'login.submitRightPassword' } | { type: 'session.logout' };

export const LOGIN_MODEL_EVENTS: readonly LoginModelEvent['type'][] = [
  'login.submitWrongPassword',
  'login.submitRightPassword',
  'session.logout',
];

export const loginModel = setup({
  types: { events: {} as LoginModelEvent },
}).createMachine({
  id: 'loginFlow',
  initial: 'loggedOut',
  states: {
    /** On /login, empty form, no error. */
    loggedOut: {
      on: {
        'login.submitWrongPassword': 'loginError',
        'login.submitRightPassword': 'loggedIn',
      },
    },
    /** Still on /login, the invalid-credentials alert is shown, the e-mail is kept. */
    loginError: {
      on: {
        'login.submitWrongPassword': 'loginError',
        'login.submitRightPassword': 'loggedIn',
      },
    },
    /** On /inbox with the sidebar. */
    loggedIn: {
      on: { 'session.logout': 'loggedOutAgain' },
    },
    /** Back on /login after logging out; protected pages ask for login again. */
    loggedOutAgain: {
      on: {
        'login.submitWrongPassword': 'loginError',
        'login.submitRightPassword': 'loggedIn',
      },
    },
  },
});

export type LoginModelState = 'loggedOut' | 'loginError' | 'loggedIn' | 'loggedOutAgain';
/** Read from the machine itself, so a state added to the model without a check fails the suite. */
export const LOGIN_MODEL_STATES = Object.keys(loginModel.states) as LoginModelState[];
