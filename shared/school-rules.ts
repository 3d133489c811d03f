// What a school is made of, by country, for both sides: the countries Hermes serves, the time zones and
// locale each offers, and what follows from the country (mail domain code, phone prefix). The setup page,
// the operators' command line and the server's checks read these, so a choice offered is a choice accepted.

export const COUNTRIES = ['CL', 'MX'] as const;
export type Country = (typeof COUNTRIES)[number];

export const SCHOOL_LOCALES = ['es-CL', 'es-MX'] as const;
export type SchoolLocale = (typeof SCHOOL_LOCALES)[number];

/** The country's IANA zones (tzdata), the most populated first: the default a new school gets. */
export const COUNTRY_TIMEZONES: Readonly<Record<Country, readonly string[]>> = {
  CL: ['America/Santiago', 'America/Punta_Arenas', 'Pacific/Easter'],
  MX: [
    'America/Mexico_City',
    'America/Monterrey',
    'America/Merida',
    'America/Cancun',
    'America/Chihuahua',
    'America/Ciudad_Juarez',
    'America/Ojinaga',
    'America/Matamoros',
    'America/Mazatlan',
    'America/Bahia_Banderas',
    'America/Hermosillo',
    'America/Tijuana',
  ],
};

/** What the country decides for a school (SPEC `domain`, the phone prefix) and what it suggests. */
export const COUNTRY_DEFAULTS: Readonly<
  Record<Country, { timezone: string; locale: SchoolLocale; domain: 'cl' | 'mx'; phonePrefix: string }>
> = {
  CL: { timezone: 'America/Santiago', locale: 'es-CL', domain: 'cl', phonePrefix: '+56' },
  MX: { timezone: 'America/Mexico_City', locale: 'es-MX', domain: 'mx', phonePrefix: '+52' },
};

const SCHOOL_NAME_MAX = 120;
const PERSON_NAME_MAX = 120;
const URL_MAX = 500;
const EMAIL_MAX = 254;

export const isCountry = (value: unknown): value is Country =>
  typeof value === 'string' && (COUNTRIES as readonly string[]).includes(value);
export const isSchoolLocale = (value: unknown): value is SchoolLocale =>
  typeof value === 'string' && (SCHOOL_LOCALES as readonly string[]).includes(value);

/** The school's fields as typed, each checked; Spanish messages keyed by field. */
export interface SchoolFields {
  name?: unknown;
  country?: unknown;
  timezone?: unknown;
  locale?: unknown;
  homeUrl?: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * An absolute http(s) address whose host has a dot (a school's site, not `localhost`), without credentials.
 * A pattern rather than `URL`: this module runs where neither the DOM's nor Node's globals are typed.
 */
const HOME_URL_RE = /^https?:\/\/(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,}(?::\d{1,5})?(?:[/?#][^\s]*)?$/iu;

function isHomeUrl(value: string): boolean {
  return value.length <= URL_MAX && HOME_URL_RE.test(value);
}

// Deliberately loose, as the login's: "looks like an address"; the invitation or first sign-in proves it.
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const isEmail = (value: string): boolean => value.length <= EMAIL_MAX && EMAIL_RE.test(value);

/** Spanish problems with a school's fields, by field name (`name`, `country`…); empty when none. */
export function schoolProblems(fields: SchoolFields): Record<string, string> {
  const problems: Record<string, string> = {};
  const name = text(fields.name);
  if (name === '') problems.name = 'El nombre del colegio es obligatorio.';
  else if (name.length > SCHOOL_NAME_MAX) problems.name = `El nombre del colegio puede tener como máximo ${SCHOOL_NAME_MAX} caracteres.`;
  if (!isCountry(fields.country)) problems.country = 'Elige el país del colegio: Chile o México.';
  else if (typeof fields.timezone !== 'string' || !COUNTRY_TIMEZONES[fields.country].includes(fields.timezone))
    problems.timezone = `Elige una zona horaria de ${fields.country === 'CL' ? 'Chile' : 'México'}.`;
  if (!isSchoolLocale(fields.locale)) problems.locale = 'Elige el idioma del colegio: español de Chile o de México.';
  const homeUrl = text(fields.homeUrl);
  if (homeUrl === '') problems.homeUrl = 'El enlace de inicio es obligatorio.';
  else if (!isHomeUrl(homeUrl))
    problems.homeUrl = 'El enlace de inicio debe ser una dirección web completa, como https://www.micolegio.cl.';
  return problems;
}

/** Spanish problems with a person's name and e-mail (an administrator, an invitation). */
export function personProblems(fields: { name?: unknown; email?: unknown }): Record<string, string> {
  const problems: Record<string, string> = {};
  const name = text(fields.name);
  if (name === '') problems.name = 'El nombre es obligatorio.';
  else if (name.length > PERSON_NAME_MAX) problems.name = `El nombre puede tener como máximo ${PERSON_NAME_MAX} caracteres.`;
  const email = text(fields.email);
  if (email === '') problems.email = 'El correo electrónico es obligatorio.';
  else if (!isEmail(email)) problems.email = 'El correo electrónico no es válido.';
  return problems;
}
