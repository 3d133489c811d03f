// Runtime checks for the single sign-on bodies (sso-contract.ts), in compose-structs.ts' conventions.
import { array, boolean, enums, string, type, type Describe } from 'superstruct';
import { SSO_PROVIDERS, type SsoSettings } from './sso-contract';

export const SsoProvidersBodyStruct = type({ data: array(enums(SSO_PROVIDERS)) });

const SsoSettingsStruct: Describe<SsoSettings> = type({
  provider: enums(SSO_PROVIDERS),
  issuer: string(),
  client_id: string(),
  has_secret: boolean(),
  domain: string(),
  enabled: boolean(),
  redirect_uri: string(),
});

export const SsoSettingsBodyStruct = type({ data: SsoSettingsStruct });
