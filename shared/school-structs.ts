// Runtime checks for the school settings body (school-contract.ts), in compose-structs.ts' conventions.
import { boolean, enums, string, type, type Describe } from 'superstruct';
import type { SchoolSettings } from './school-contract';
import { COUNTRIES, SCHOOL_LOCALES } from './school-rules';

const SchoolSettingsStruct: Describe<SchoolSettings> = type({
  name: string(),
  country: enums(COUNTRIES),
  timezone: string(),
  locale: enums(SCHOOL_LOCALES),
  home_url: string(),
  chat_enabled: boolean(),
  chat_available: boolean(),
});

export const SchoolSettingsBodyStruct = type({ data: SchoolSettingsStruct });
