// The school's single sign-on settings (shared/sso-contract.ts): `GET /sso/settings` and `PUT /sso/settings`,
// bodies checked before a machine sees them. The client secret goes up only when typed; it never comes back.
import { SSO_API, type SsoSettings, type SsoSettingsInput } from '../../../shared/sso-contract';
import { SsoSettingsBodyStruct } from '../../../shared/sso-structs';
import { fromCall, parseBody } from '../http/client';

export const fetchSsoSettings = fromCall<SsoSettings>(async ({ signal, http }) => {
  const body = await http.request(SSO_API.settings, { signal });
  return parseBody(body, SsoSettingsBodyStruct, SSO_API.settings).data;
});

export const saveSsoSettings = fromCall<SsoSettings, SsoSettingsInput>(async ({ input, signal, http }) => {
  const body = await http.request(SSO_API.settings, { method: 'PUT', body: { ...input }, signal });
  return parseBody(body, SsoSettingsBodyStruct, SSO_API.settings).data;
});
