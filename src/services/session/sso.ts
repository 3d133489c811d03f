// Single sign-on as the login page needs it: which providers some school has switched on
// (`GET /sso/providers`, open: outside the session's token gate), checked before a machine sees it. Leaving
// for a provider is a link, not a call.
import { SSO_API, type SsoProvider } from '../../../shared/sso-contract';
import { SsoProvidersBodyStruct } from '../../../shared/sso-structs';
import { fromCall, parseBody } from '../http/client';

export const fetchSsoProviders = fromCall<SsoProvider[]>(async ({ signal, http }) => {
  const body = await http.request(SSO_API.providers, { signal, silent: true, authFlow: true });
  return parseBody(body, SsoProvidersBodyStruct, SSO_API.providers).data;
});
