// The login page's single sign-on section: which providers to offer ("Ingresar con Google / Microsoft"),
// asked once the form is on screen, and the refusal a provider's sign-in came back with (`/login?sso=…`,
// read from the address as the visit opens). Without providers, or when the question fails, the section
// stays empty: the e-mail and password form is all there is. Leaving for a provider is a plain link
// (`ssoStartHref`), which the browser follows out of the app.
import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { SSO_API, SSO_REFUSAL_PARAM, SSO_REFUSALS, type SsoProvider, type SsoRefusal } from '../../../shared/sso-contract';
import { API_BASE } from '../../services/http/client';
import { fetchSsoProviders } from '../../services/session/sso';

export interface SsoInput {
  /** The address's query, without `?`. */
  search: string;
}

export interface SsoContext {
  providers: SsoProvider[];
  refusal: SsoRefusal | null;
}

/** The refusal a query carries, or null (none, or a code this app does not know). */
export function refusalOf(search: string): SsoRefusal | null {
  const code = new URLSearchParams(search).get(SSO_REFUSAL_PARAM);
  return (SSO_REFUSALS as readonly (string | null)[]).includes(code) ? (code as SsoRefusal) : null;
}

/** Where a provider's button leads: the server's start, with the e-mail typed so far as a hint. */
export function ssoStartHref(provider: SsoProvider, email: string): string {
  const query = new URLSearchParams({ provider });
  const typed = email.trim();
  if (typed !== '') query.set('email', typed);
  return `${API_BASE}${SSO_API.start}?${query}`;
}

export const ssoMachine = setup({
  types: {
    input: {} as SsoInput,
    context: {} as SsoContext,
  },
  actors: { fetchSsoProviders },
}).createMachine({
  id: 'sso',
  context: ({ input }) => ({ providers: [], refusal: refusalOf(input.search) }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchSsoProviders',
        src: 'fetchSsoProviders',
        onDone: { target: 'ready', actions: assign({ providers: ({ event }) => event.output }) },
        // The password form stays: no buttons is no loss.
        onError: { target: 'ready' },
      },
    },
    ready: {},
  },
});

export type SsoActor = ActorRefFrom<typeof ssoMachine>;
type SsoSnapshot = SnapshotFrom<typeof ssoMachine>;

export const selectSsoRefusal = (s: SsoSnapshot): SsoRefusal | null => s.context.refusal;
export const selectHasGoogle = (s: SsoSnapshot): boolean => s.context.providers.includes('google');
export const selectHasMicrosoft = (s: SsoSnapshot): boolean => s.context.providers.includes('microsoft');
export const selectHasOther = (s: SsoSnapshot): boolean => s.context.providers.includes('other');
