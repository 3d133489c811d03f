// Checks of a person's contact data (SPEC §3 "User to edit"), shared so the SPA shows the same Spanish
// field errors before sending as the server answers after (PATCH /recipient-lists/{id}/users/{memberId}).
// Pure: no libraries. The server then asks libphonenumber (server/recipients/phone.ts) whether a number that
// passed `checkPhoneShape` really is a mobile of its country.
import { ADMIN_ROLES, type RoleCode } from './codes';
import { DOCUMENT_TYPES, type DocumentTypeId, type UserToEditInput } from './recipient-lists-contract';

export const PERSON_NAME_MAX = 80;

/**
 * Who may change a person's contact data (a guardian's, a student's, a colleague's): the school's leadership.
 * Hermes does not know which course a head teacher leads, so it is not among them (decision 0135).
 */
export const PEOPLE_EDITORS: readonly RoleCode[] = ADMIN_ROLES;
const EMAIL_MAX = 254;

/** SPEC §3 phone prefixes with their countries; the picker names them and starts with the school's (`phonePrefixesFor`). */
export const PHONE_PREFIXES = [
  { prefix: '+56', countries: ['CL'] },
  { prefix: '+52', countries: ['MX'] },
  { prefix: '+54', countries: ['AR'] },
  { prefix: '+55', countries: ['BR'] },
  { prefix: '+51', countries: ['PE'] },
  { prefix: '+1', countries: ['US', 'CA'] },
] as const;
export type PhonePrefixCountry = (typeof PHONE_PREFIXES)[number]['countries'][number];

/** The prefixes as the school of `schoolPrefix` is offered them: its own first, then the others in SPEC order. */
export function phonePrefixesFor(schoolPrefix: string): (typeof PHONE_PREFIXES)[number][] {
  const own = PHONE_PREFIXES.filter((p) => p.prefix === schoolPrefix);
  return [...own, ...PHONE_PREFIXES.filter((p) => p.prefix !== schoolPrefix)];
}

export const PERSON_ERRORS = {
  nombresRequired: 'Ingresa los nombres.',
  nombresLong: `Los nombres pueden tener hasta ${PERSON_NAME_MAX} caracteres.`,
  apellidoRequired: 'Ingresa el apellido paterno.',
  apellidoLong: `El apellido paterno puede tener hasta ${PERSON_NAME_MAX} caracteres.`,
  apellidoMaternoLong: `El apellido materno puede tener hasta ${PERSON_NAME_MAX} caracteres.`,
  email: 'Ingresa un correo electrónico válido, por ejemplo nombre@dominio.cl.',
  // The editor picks the prefix apart from the number: its hint and this text both speak of the number after it.
  phoneShape: 'Revisa el número: después del prefijo del país van de 8 a 11 dígitos, por ejemplo 9 1234 5678.',
  phonePrefix: 'Ese prefijo de país no está disponible: usa +56, +52, +54, +55, +51 o +1.',
  phoneInvalid: 'Ese número de celular no existe en el país de su prefijo. Revisa los dígitos.',
  phoneNotMobile: 'Ese número no es de un celular: los SMS y WhatsApp solo llegan a celulares.',
  phoneStudent: 'Hermes no guarda celulares de estudiantes: escribe a sus apoderados.',
  documentType: 'Elige un tipo de documento: RUT, CURP u otro.',
  documentTypeMissing: 'Elige el tipo de documento.',
  rutShape: 'Ingresa el RUT con su dígito verificador, por ejemplo 12.345.678-5.',
  rutCheck: 'El RUT no es válido: revisa el dígito verificador.',
  curpShape: 'La CURP tiene 18 letras y números, por ejemplo HEGG560427MVZRRL04.',
  curpCheck: 'La CURP no es válida: revisa el dígito verificador.',
  otherLong: 'El documento puede tener hasta 30 caracteres.',
  staffDocument: 'Hermes no guarda documentos de funcionarios.',
} as const;

/**
 * The texts a Mexican school reads instead (its prefix is +52): Mexican examples and words (padres o
 * tutores, alumnos, personal). Every other text is the same in both countries.
 */
export const PERSON_ERRORS_MX: Readonly<Partial<Record<keyof typeof PERSON_ERRORS, string>>> = {
  email: 'Ingresa un correo electrónico válido, por ejemplo nombre@dominio.mx.',
  phoneShape: 'Revisa el número: después del prefijo del país van de 8 a 11 dígitos, por ejemplo 55 1234 5678.',
  phoneStudent: 'Hermes no guarda celulares de alumnos: escribe a sus padres o tutores.',
  staffDocument: 'Hermes no guarda documentos del personal.',
};

/** `message` (one of PERSON_ERRORS) as the school of `schoolPrefix` reads it. */
function personErrorFor(message: string, schoolPrefix: string): string {
  if (schoolPrefix !== '+52') return message;
  const key = (Object.keys(PERSON_ERRORS) as (keyof typeof PERSON_ERRORS)[]).find((k) => PERSON_ERRORS[k] === message);
  return (key && PERSON_ERRORS_MX[key]) || message;
}

// --- RUT ----------------------------------------------------------------------------------------------------

/** Modulo-11 check digit of a RUT body ("K" for 10, "0" for 11). */
export function rutCheckDigit(body: number): string {
  let sum = 0;
  let factor = 2;
  for (let n = body; n > 0; n = Math.floor(n / 10)) {
    sum += (n % 10) * factor;
    factor = factor === 7 ? 2 : factor + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 11 ? '0' : digit === 10 ? 'K' : String(digit);
}

/** A RUT as typed ("12.345.678-5", "123456785", "12345678-k") → "12345678-5", or the reason it is not one. */
export function normalizeRut(raw: string): { ok: true; value: string } | { ok: false; error: string } {
  const compact = raw.trim().replace(/[.\s]/g, '').toUpperCase();
  const match = /^(\d{1,8})-?([\dK])$/.exec(compact);
  if (!match || Number(match[1]) < 100_000) return { ok: false, error: PERSON_ERRORS.rutShape };
  const body = Number(match[1]);
  if (rutCheckDigit(body) !== match[2]) return { ok: false, error: PERSON_ERRORS.rutCheck };
  return { ok: true, value: `${body}-${match[2]}` };
}

// --- CURP ---------------------------------------------------------------------------------------------------

const CURP_STATES = 'AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE';
const CURP_PATTERN = new RegExp(
  `^[A-Z][AEIOUX][A-Z]{2}\\d{2}(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])[HMX](${CURP_STATES})[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z]\\d$`,
);
const CURP_ALPHABET = '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ';

/** RENAPO's check digit: the first 17 characters weighted 18…2, modulo 10. */
export function curpCheckDigit(first17: string): number {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CURP_ALPHABET.indexOf(first17[i]!) * (18 - i);
  return (10 - (sum % 10)) % 10;
}

export function normalizeCurp(raw: string): { ok: true; value: string } | { ok: false; error: string } {
  const value = raw.trim().replace(/\s/g, '').toUpperCase();
  if (!CURP_PATTERN.test(value)) return { ok: false, error: PERSON_ERRORS.curpShape };
  if (curpCheckDigit(value.slice(0, 17)) !== Number(value[17])) return { ok: false, error: PERSON_ERRORS.curpCheck };
  return { ok: true, value };
}

// --- e-mail and phone ---------------------------------------------------------------------------------------

/** One @, a dotted domain, no spaces: what a school's records need (the mail server decides the rest). */
export function isEmail(value: string): boolean {
  return value.length <= EMAIL_MAX && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

/**
 * A mobile as typed, with its country prefix ("+56 9 1234 5678"); without "+" the school's prefix is
 * assumed. Returns the compact "+<digits>" and the countries of its prefix, or the field error.
 */
export function checkPhoneShape(
  raw: string,
  schoolPrefix: string,
): { ok: true; value: string; countries: readonly PhonePrefixCountry[] } | { ok: false; error: string } {
  const trimmed = raw.trim();
  if (!/^\+?[\d\s().\-/]+$/.test(trimmed)) return { ok: false, error: PERSON_ERRORS.phoneShape };
  const digits = trimmed.replace(/\D/g, '');
  const value = trimmed.startsWith('+') ? `+${digits}` : `${schoolPrefix}${digits}`;
  const entry = PHONE_PREFIXES.find((p) => value.startsWith(p.prefix));
  if (!entry) return { ok: false, error: PERSON_ERRORS.phonePrefix };
  const national = value.length - entry.prefix.length;
  if (national < 8 || national > 11) return { ok: false, error: PERSON_ERRORS.phoneShape };
  return { ok: true, value, countries: entry.countries };
}

// --- the whole edit -----------------------------------------------------------------------------------------

export type PersonKind = 'apoderado' | 'estudiante' | 'funcionario';

/** The checked edit: trimmed and normalized values (RUT "12345678-5", CURP upper case, e-mail lower case). */
export interface CheckedPersonEdit {
  values: UserToEditInput;
  /** The phone passed its shape check; the server still asks whether it is a mobile of these countries. */
  phoneCountries: readonly PhonePrefixCountry[] | null;
  errors: Record<string, string[]>;
}

const DOCUMENT_TYPE_IDS: readonly number[] = Object.values(DOCUMENT_TYPES);

/**
 * Checks a "User to edit" body for a person of `kind`. `current` is the record as stored (a document type
 * given alone checks the stored number, and the reverse). Fields absent from `input` stay unchanged.
 */
export function checkPersonEdit(
  kind: PersonKind,
  input: UserToEditInput,
  current: { dni: string | null; tipo_documento_id: DocumentTypeId | null },
  schoolPrefix: string,
): CheckedPersonEdit {
  const errors: Record<string, string[]> = {};
  const values: UserToEditInput = {};
  let phoneCountries: CheckedPersonEdit['phoneCountries'] = null;
  const fail = (field: string, message: string) => {
    errors[field] = [personErrorFor(message, schoolPrefix)];
  };

  const name = (field: 'nombres' | 'apellido_paterno' | 'apellido_materno', required: string | null, long: string) => {
    const raw = input[field];
    if (raw === undefined) return;
    const value = typeof raw === 'string' ? raw.trim().replace(/\s+/g, ' ') : '';
    if (value === '' && required !== null) fail(field, required);
    else if (value.length > PERSON_NAME_MAX) fail(field, long);
    else values[field] = value;
  };
  name('nombres', PERSON_ERRORS.nombresRequired, PERSON_ERRORS.nombresLong);
  name('apellido_paterno', PERSON_ERRORS.apellidoRequired, PERSON_ERRORS.apellidoLong);
  // Optional: many people have one surname only.
  name('apellido_materno', null, PERSON_ERRORS.apellidoMaternoLong);

  if (input.email !== undefined) {
    const value = typeof input.email === 'string' ? input.email.trim().toLowerCase() : input.email;
    if (value === null || value === '') values.email = null;
    else if (typeof value !== 'string' || !isEmail(value)) fail('email', PERSON_ERRORS.email);
    else values.email = value;
  }

  if (input.fono_celular !== undefined) {
    const raw = input.fono_celular;
    if (raw === null || (typeof raw === 'string' && raw.trim() === '')) values.fono_celular = null;
    else if (kind === 'estudiante') fail('fono_celular', PERSON_ERRORS.phoneStudent);
    else if (typeof raw !== 'string') fail('fono_celular', PERSON_ERRORS.phoneShape);
    else {
      const shape = checkPhoneShape(raw, schoolPrefix);
      if (!shape.ok) fail('fono_celular', shape.error);
      else {
        values.fono_celular = shape.value;
        phoneCountries = shape.countries;
      }
    }
  }

  if (input.dni !== undefined || input.tipo_documento_id !== undefined) {
    if (kind === 'funcionario') {
      // Blanks are no document (the editor sends every field); only a real number or type is refused.
      const dni = typeof input.dni === 'string' ? input.dni.trim() : input.dni;
      if (dni !== undefined && dni !== null && dni !== '') fail('dni', PERSON_ERRORS.staffDocument);
      else if (input.tipo_documento_id !== undefined && input.tipo_documento_id !== null)
        fail('tipo_documento_id', PERSON_ERRORS.staffDocument);
    } else {
      const type = input.tipo_documento_id === undefined ? current.tipo_documento_id : input.tipo_documento_id;
      const rawDni = input.dni === undefined ? current.dni : input.dni;
      const dni = typeof rawDni === 'string' ? rawDni.trim() : rawDni;
      if (type !== null && !DOCUMENT_TYPE_IDS.includes(type as number)) fail('tipo_documento_id', PERSON_ERRORS.documentType);
      else if (dni === null || dni === '') {
        // No number, no document: the type alone says nothing about the person.
        values.dni = null;
        values.tipo_documento_id = null;
      } else if (typeof dni !== 'string') fail('dni', PERSON_ERRORS.rutShape);
      else if (type === null) fail('tipo_documento_id', PERSON_ERRORS.documentTypeMissing);
      else {
        const checked =
          type === DOCUMENT_TYPES.rut
            ? normalizeRut(dni)
            : type === DOCUMENT_TYPES.curp
              ? normalizeCurp(dni)
              : dni.length <= 30
                ? ({ ok: true, value: dni } as const)
                : ({ ok: false, error: PERSON_ERRORS.otherLong } as const);
        if (!checked.ok) fail('dni', checked.error);
        else {
          values.dni = checked.value;
          values.tipo_documento_id = type;
        }
      }
    }
  }
  return { values, phoneCountries, errors };
}
