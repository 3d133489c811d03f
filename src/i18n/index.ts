// Translations (SPEC §1, §7). The shell's texts (es-CL.json) are bundled: es-CL is the default and the
// fallback. Each screen's texts are a namespace (`compose/es-CL.json`…) loaded with the screen's chunk, in
// the locale in use; es-MX is loaded on first use. rosetta interpolates `{{name}}` placeholders.
//
// A namespace is named by its folder, one per feature (`session`, `compose`, `news`…). A feature whose
// screens load different texts keeps them apart in subfolders, so each screen loads only its own:
// `news/admin` (categories, trash, the week) and `news/compose` beside the wall's `news`,
// `dashboard/activity` (the users and ranking screens), `settings/signature` beside the quota's `settings`,
// `staff/invitation` (the public page an invited person opens) beside the staff screen's `staff`.
// What only a signed-in user sees around the screens (the menu, the account, toasts' buttons, the device
// legend, the settings' tabs) is `layout`, loaded with the layout's chunk: the login form does not need it.
//
// Plurals are real: a text with forms `key_one` / `key_other` (CLDR categories, `Intl.PluralRules`) is
// asked for as `t('key', { count })`. Keys are typed (`MessageKey`): a typo fails the type check.
import rosetta from 'rosetta';
import shellCL from './es-CL.json';
import type composeCL from './compose/es-CL.json';
import type sessionCL from './session/es-CL.json';
import type ssoCL from './session/sso/es-CL.json';
import type layoutCL from './layout/es-CL.json';
import type messagesCL from './messages/es-CL.json';
import type receptionCL from './reception/es-CL.json';
import type recipientListsCL from './recipient-lists/es-CL.json';
import type templatesCL from './templates/es-CL.json';
import type signatureCL from './settings/signature/es-CL.json';
import type settingsCL from './settings/es-CL.json';
import type settingsSsoCL from './settings/sso/es-CL.json';
import type activityCL from './dashboard/activity/es-CL.json';
import type dashboardCL from './dashboard/es-CL.json';
import type newsAdminCL from './news/admin/es-CL.json';
import type newsCL from './news/es-CL.json';
import type newsComposeCL from './news/compose/es-CL.json';
import type passwordsCL from './passwords/es-CL.json';
import type setupCL from './setup/es-CL.json';
import type schoolCL from './settings/school/es-CL.json';
import type staffCL from './staff/es-CL.json';
import type invitationCL from './staff/invitation/es-CL.json';
import type rosterCL from './roster/es-CL.json';
import type peopleCL from './people/es-CL.json';
import type retentionCL from './retention/es-CL.json';
import type auditCL from './audit/es-CL.json';
import type privacyCL from './privacy/es-CL.json';
import type privacyRequestsCL from './privacy-requests/es-CL.json';
import type { Locale } from '../../shared/contract';

/** Texts of one screen family (a folder here, by its path), loaded with its chunk. */
export type Namespace =
  | 'layout'
  | 'session'
  | 'session/sso'
  | 'messages'
  | 'compose'
  | 'reception'
  | 'templates'
  | 'recipient-lists'
  | 'settings/signature'
  | 'settings'
  | 'settings/sso'
  | 'dashboard/activity'
  | 'dashboard'
  | 'news/admin'
  | 'news'
  | 'news/compose'
  | 'passwords'
  | 'setup'
  | 'settings/school'
  | 'staff'
  | 'staff/invitation'
  | 'roster'
  | 'people'
  | 'retention'
  | 'audit'
  | 'privacy'
  | 'privacy-requests';
export const NAMESPACES: readonly Namespace[] = [
  'layout',
  'session',
  'session/sso',
  'messages',
  'compose',
  'reception',
  'templates',
  'recipient-lists',
  'settings/signature',
  'settings',
  'settings/sso',
  'dashboard/activity',
  'dashboard',
  'news/admin',
  'news',
  'news/compose',
  'passwords',
  'setup',
  'settings/school',
  'staff',
  'staff/invitation',
  'roster',
  'people',
  'retention',
  'audit',
  'privacy',
  'privacy-requests',
];

type Messages = typeof shellCL &
  typeof layoutCL &
  typeof sessionCL &
  typeof ssoCL &
  typeof messagesCL &
  typeof composeCL &
  typeof receptionCL &
  typeof templatesCL &
  typeof recipientListsCL &
  typeof signatureCL &
  typeof settingsCL &
  typeof settingsSsoCL &
  typeof activityCL &
  typeof dashboardCL &
  typeof newsAdminCL &
  typeof newsCL &
  typeof newsComposeCL &
  typeof passwordsCL &
  typeof setupCL &
  typeof schoolCL &
  typeof staffCL &
  typeof invitationCL &
  typeof rosterCL &
  typeof peopleCL &
  typeof retentionCL &
  typeof auditCL &
  typeof privacyCL &
  typeof privacyRequestsCL;

type PluralCategory = 'zero' | 'one' | 'two' | 'few' | 'many' | 'other';
/** `selected_one` and `selected_other` are both asked for as `selected`. */
type Base<K extends string> = K extends `${infer B}_${PluralCategory}` ? B : K;
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends Record<string, unknown> ? Leaves<T[K], `${Prefix}${K}.`> : `${Prefix}${Base<K>}`;
}[keyof T & string];

/** Every text key of the app, shell and screens (plural forms under their base key). */
export type MessageKey = Leaves<Messages>;

export type TextParams = Record<string, string | number>;

export const DEFAULT_LOCALE: Locale = 'es-CL';
export const LOCALES: readonly Locale[] = ['es-CL', 'es-MX'];

type Table = Record<string, unknown>;
type Part = 'shell' | Namespace;

// One chunk per file (only es-CL's shell is in the first download); a new screen folder is found by itself.
// The families' app (family/) has its own tables, in its own download (family.ts).
const FILES = import.meta.glob<{ default: Table }>(['./es-MX.json', './*/**/es-CL.json', './*/**/es-MX.json', '!./family/**']);

function loaderOf(locale: Locale, part: Part): () => Promise<Table> {
  if (locale === DEFAULT_LOCALE && part === 'shell') return async () => shellCL;
  const file = FILES[part === 'shell' ? `./${locale}.json` : `./${part}/${locale}.json`];
  if (!file) throw new Error(`i18n: no ${part} texts for ${locale}`);
  return async () => (await file()).default;
}

const i18n = rosetta<Table>({ [DEFAULT_LOCALE]: shellCL });
i18n.locale(DEFAULT_LOCALE);

/** Parts loaded (or loading) per locale; a failed load is forgotten so it can be asked again. */
const loading = new Map<string, Promise<void>>();
/** Namespaces some screen has asked for: a locale switch loads them too. */
const wanted = new Set<Namespace>();
/** The locale being switched to (the current one when no switch is under way). */
let target: Locale = DEFAULT_LOCALE;
loading.set(`${DEFAULT_LOCALE}:shell`, Promise.resolve());

function merge(into: Table, from: Table): Table {
  const out: Table = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const current = out[key];
    out[key] = isTable(value) && isTable(current) ? merge(current, value) : value;
  }
  return out;
}

const isTable = (value: unknown): value is Table => typeof value === 'object' && value !== null && !Array.isArray(value);

function load(locale: Locale, part: Part): Promise<void> {
  const key = `${locale}:${part}`;
  let pending = loading.get(key);
  if (!pending) {
    // rosetta's `set` merges one level deep only: namespaces share top-level keys with nothing, but merge anyway.
    pending = loaderOf(locale, part)().then((table) => i18n.set(locale, merge(i18n.table(locale) ?? {}, table)));
    pending.catch(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Loads the shell and every namespace in use for `locale`, then makes it current, unless another locale was
 * asked for meanwhile: the latest request wins even when an earlier one finishes loading after it (the
 * default's texts still arriving when the school's locale is asked for). Rejects when a chunk fails.
 */
export async function setLocale(locale: Locale): Promise<Locale> {
  target = locale;
  try {
    await Promise.all([load(locale, 'shell'), ...[...wanted].map((namespace) => load(locale, namespace))]);
  } catch (error) {
    if (target === locale) target = getLocale();
    throw error;
  }
  if (target === locale) i18n.locale(locale);
  return locale;
}

/** A screen's texts in the current locale (and, after a switch, in the new one): await before rendering it. */
export async function loadTexts(namespaces: readonly Namespace[]): Promise<void> {
  for (const namespace of namespaces) wanted.add(namespace);
  // A switch under way may have listed what was wanted before this screen asked: load for both locales.
  const locales = new Set([getLocale(), target]);
  await Promise.all([...locales].flatMap((locale) => namespaces.map((namespace) => load(locale, namespace))));
}

export function getLocale(): Locale {
  const current = i18n.locale();
  return isLocale(current) ? current : DEFAULT_LOCALE;
}

const pluralRules = new Map<string, Intl.PluralRules>();

function pluralOf(locale: string, count: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * The params as the text shows them: a number written as the locale writes amounts ("3.663" in Chile,
 * "3,663" in Mexico, "94,6"), so no count reaches a screen without its thousands separator. A number that is
 * a name, not an amount (a year, a code), is passed as text.
 */
function shown(params: TextParams | undefined, locale: string): TextParams | undefined {
  if (!params) return params;
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    numberFormats.set(locale, format);
  }
  const out: TextParams = {};
  for (const [name, value] of Object.entries(params)) out[name] = typeof value === 'number' ? format.format(value) : value;
  return out;
}

function lookup(key: string, params: TextParams | undefined, locale: string): string | null {
  const count = params?.count;
  const values = shown(params, locale);
  // With a number the plural forms come first: a key may also have a plain text (the label "Miembros" beside
  // "8 miembros"). A plural text asked for without a number (a pattern's placeholder, say) reads in its
  // "other" form.
  const candidates = typeof count === 'number' ? [`${key}_${pluralOf(locale, count)}`, `${key}_other`, key] : [key, `${key}_other`];
  for (const candidate of candidates) {
    const text = i18n.t(candidate, values, locale);
    if (typeof text === 'string' && text !== '') return text;
  }
  return null;
}

/**
 * The text for `key` in the current locale, falling back to es-CL, then to the key itself so a missing
 * text is visible instead of blank.
 */
export function t(key: MessageKey, params?: TextParams): string {
  return lookup(key, params, getLocale()) ?? lookup(key, params, DEFAULT_LOCALE) ?? key;
}

/** Whether a key built at run time (a server's error code, say) has a text; narrows it for `t`. */
export function hasText(key: string): key is MessageKey {
  return lookup(key, { count: 1 }, getLocale()) !== null || lookup(key, { count: 1 }, DEFAULT_LOCALE) !== null;
}
