// A person's contact form, one place for it: the list member editor (recipient-lists/member-editor.ts), a
// student's or guardian's record and a new guardian (people/person.ts) edit the same fields with the same
// checks (shared/person-rules.ts `checkPersonEdit`) before sending, and show the server's 422 per field the same
// way. Pure: the form's values, what a save sends, and the errors keyed by the form's fields.
import { DOCUMENT_TYPES, type DocumentTypeId, type UserToEditInput } from '../../../shared/recipient-lists-contract';
import { checkPersonEdit, type PersonKind, PHONE_PREFIXES as SHARED_PREFIXES, phonePrefixesFor } from '../../../shared/person-rules';
import type { ApiFailure } from '../../services/http/client';
import { serverErrors, type FieldErrors } from '../recipient-lists/recipient-lists';

/** SPEC §3 prefixes as the prefix picker offers them (shared/person-rules.ts); the longest match wins when splitting. */
const PHONE_PREFIXES = SHARED_PREFIXES.map((entry) => entry.prefix);
export type PhonePrefix = (typeof SHARED_PREFIXES)[number]['prefix'];

/** The prefixes as the picker lists them: the school's own first. */
export const prefixesFor = (schoolPrefix: PhonePrefix): PhonePrefix[] => phonePrefixesFor(schoolPrefix).map((entry) => entry.prefix);

export interface ContactForm {
  nombres: string;
  apellido_paterno: string;
  apellido_materno: string;
  email: string;
  prefix: PhonePrefix;
  phone: string;
  /** '' (none) or a DOCUMENT_TYPES id as text (the select's value). */
  tipo_documento_id: string;
  dni: string;
}

export type ContactField = keyof ContactForm;

/** What a stored record gives the form. */
export interface ContactRecord {
  kind: PersonKind;
  nombres: string;
  apellido_paterno: string;
  apellido_materno: string;
  email: string | null;
  fono_celular: string | null;
  tipo_documento_id: DocumentTypeId | null;
  dni: string | null;
}

/** A stored E.164 number as the prefix and the national part the form shows. */
export function splitPhone(e164: string | null, fallback: PhonePrefix): { prefix: PhonePrefix; phone: string } {
  if (!e164) return { prefix: fallback, phone: '' };
  const prefix = [...PHONE_PREFIXES].sort((a, b) => b.length - a.length).find((p) => e164.startsWith(p));
  return prefix ? { prefix, phone: e164.slice(prefix.length) } : { prefix: fallback, phone: e164 };
}

/** The document of the school's country (by its prefix): offered for a guardian or student with none. */
const SCHOOL_DOCUMENT: Partial<Record<PhonePrefix, DocumentTypeId>> = { '+56': DOCUMENT_TYPES.rut, '+52': DOCUMENT_TYPES.curp };

/** The select's value: the stored type, else the school's document (not for staff, who have none). */
function documentTypeOf(record: ContactRecord, fallback: PhonePrefix): string {
  if (record.tipo_documento_id !== null) return String(record.tipo_documento_id);
  const schools = SCHOOL_DOCUMENT[fallback];
  return record.kind === 'funcionario' || record.dni || schools === undefined ? '' : String(schools);
}

export function contactFormOf(record: ContactRecord, fallback: PhonePrefix): ContactForm {
  return {
    nombres: record.nombres,
    apellido_paterno: record.apellido_paterno,
    apellido_materno: record.apellido_materno,
    email: record.email ?? '',
    ...splitPhone(record.fono_celular, fallback),
    tipo_documento_id: documentTypeOf(record, fallback),
    dni: record.dni ?? '',
  };
}

/** A blank form for someone new of `kind` (a new guardian): the school's prefix and document offered. */
export const emptyContactForm = (kind: PersonKind, fallback: PhonePrefix): ContactForm =>
  contactFormOf(
    { kind, nombres: '', apellido_paterno: '', apellido_materno: '', email: null, fono_celular: null, tipo_documento_id: null, dni: null },
    fallback,
  );

/**
 * What a save sends: every field, blanks as null; the phone as prefix plus digits typed, or whole when it
 * was typed with its own "+" prefix (pasted from elsewhere), so it is never prefixed twice.
 */
export function contactChangesOf(form: ContactForm): UserToEditInput {
  const phone = form.phone.replace(/[\s\-().]/g, '');
  const documentType = form.tipo_documento_id === '' ? null : (Number(form.tipo_documento_id) as DocumentTypeId);
  return {
    nombres: form.nombres.trim(),
    apellido_paterno: form.apellido_paterno.trim(),
    apellido_materno: form.apellido_materno.trim(),
    email: form.email.trim() || null,
    fono_celular: phone === '' ? null : phone.startsWith('+') ? phone : `${form.prefix}${phone}`,
    tipo_documento_id: documentType,
    dni: form.dni.trim() || null,
  };
}

const CONTACT_FIELDS = ['nombres', 'apellido_paterno', 'apellido_materno', 'email', 'dni', 'tipo_documento_id'] as const;

/** The form field a server error names (the phone's error is shown under the number); `extra` are a form's own fields. */
export const fieldOfError = (key: string, extra: readonly string[] = []): string =>
  key === 'fono_celular' ? 'phone' : (CONTACT_FIELDS as readonly string[]).includes(key) || extra.includes(key) ? key : 'form';

/** The fields top to bottom as the forms show them: a refused save puts focus on the first with an error. */
export const CONTACT_FIELD_ORDER: readonly ContactField[] = [
  'nombres',
  'apellido_paterno',
  'apellido_materno',
  'email',
  'phone',
  'tipo_documento_id',
  'dni',
];

/** The first field of `order` with an error, or null. */
export const firstRefusedField = <F extends string = ContactField>(
  errors: FieldErrors,
  order: readonly F[] = CONTACT_FIELD_ORDER as readonly string[] as readonly F[],
): F | null => order.find((field) => errors[field] !== undefined) ?? null;

/** Server errors keyed by the form's fields (`extra`: a form's fields beyond the contact's, kept by their name). */
export function contactServerErrors(failure: ApiFailure, extra: readonly string[] = []): FieldErrors {
  const errors: FieldErrors = {};
  for (const [key, value] of Object.entries(serverErrors(failure) ?? {})) errors[fieldOfError(key, extra)] = value;
  return errors;
}

/**
 * The same checks the server makes (shared/person-rules.ts), before sending: names, e-mail, the phone's
 * shape and prefix, RUT or CURP check digit. The server still decides whether a number is a real mobile.
 * `current` is the record as stored (a new person has none).
 */
export function contactErrors(
  kind: PersonKind,
  form: ContactForm,
  current: { dni: string | null; tipo_documento_id: DocumentTypeId | null },
  schoolPrefix: PhonePrefix,
): FieldErrors {
  const { errors } = checkPersonEdit(kind, contactChangesOf(form), current, schoolPrefix);
  const out: FieldErrors = {};
  for (const [key, texts] of Object.entries(errors)) {
    const field = fieldOfError(key);
    if (texts[0] && !out[field]) out[field] = { text: texts[0] };
  }
  return out;
}
