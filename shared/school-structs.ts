// Runtime checks for the school settings body (school-contract.ts), in compose-structs.ts' conventions.
import { boolean, enums, nullable, number, string, type, type Describe } from 'superstruct';
import { LOGO_TYPES, type SchoolLogo, type SchoolSettings } from './school-contract';
import { COUNTRIES, SCHOOL_LOCALES } from './school-rules';

const SchoolLogoStruct: Describe<SchoolLogo> = type({
  url: string(),
  content_type: enums(LOGO_TYPES),
  size: number(),
  width: number(),
  height: number(),
});

/** `PUT /school/logo` answers `{ data: SchoolLogo }`. */
export const SchoolLogoBodyStruct = type({ data: SchoolLogoStruct });

const SchoolSettingsStruct: Describe<SchoolSettings> = type({
  name: string(),
  country: enums(COUNTRIES),
  timezone: string(),
  locale: enums(SCHOOL_LOCALES),
  home_url: string(),
  chat_enabled: boolean(),
  chat_available: boolean(),
  logo: nullable(SchoolLogoStruct),
});

export const SchoolSettingsBodyStruct = type({ data: SchoolSettingsStruct });
