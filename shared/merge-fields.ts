// Merge fields: `{estudiante}`, `{curso}` and `{apoderado}` in a message's title or content are
// filled per recipient when it is delivered. Pure rules shared by compose's SMS counter (SPA), send's and
// the estimate's validation and the delivery engine (server), so the SMS counted is the SMS sent.
//
// What each recipient gets (docs/decisions/0047-merge-fields-filled-per-recipient.md):
// - a guardian: {estudiante} the first names of the students they were reached for ("Martina y Tomás"),
//   {curso} those students' courses, once each ("3° Básico A y 5° Básico B"), {apoderado} their own name;
// - a student: their own first name and course, and {apoderado} their titular guardian's name;
// - a staff member (and the author's own copy): the fields as written, since they read the message as
//   its author wrote it for the families.
// An SMS is counted with each field at its longest value among the message's recipients.
import { MERGE_FIELDS, type MergeField } from './templates-contract';
import { smsText, type SmsText } from './sms-text';

/** `{estudiante}` as written in a text. */
const fieldToken = (field: MergeField): string => `{${field}}`;

const FIELD_PATTERN = new RegExp(`\\{(${MERGE_FIELDS.join('|')})\\}`, 'g');

/** The merge fields a text uses, once each, in order of first appearance. */
export function fieldsIn(text: string): MergeField[] {
  const found: MergeField[] = [];
  for (const match of text.matchAll(FIELD_PATTERN)) {
    const field = match[1] as MergeField;
    if (!found.includes(field)) found.push(field);
  }
  return found;
}

/** Whether any of these texts uses a merge field. */
export const hasFields = (...texts: string[]): boolean => texts.some((text) => fieldsIn(text).length > 0);

/** One recipient's values; a field left out is kept as written (staff recipients). */
export type MergeValues = Partial<Record<MergeField, string>>;

/**
 * The text with each field replaced by its value. A field whose value is empty (a guardian with no student
 * on record) goes away with one space beside it, so no double space or space before a comma is left.
 */
export function fillFields(text: string, values: MergeValues): string {
  return text.replace(/( ?)\{(estudiante|curso|apoderado)\}( ?)/g, (whole, before: string, field: MergeField, after: string) => {
    const value = values[field];
    if (value === undefined) return whole;
    if (value === '') return before && after ? ' ' : '';
    return `${before}${value}${after}`;
  });
}

/**
 * "y" is "e" before a word sounding /i/ (Inés, Hilda), not before "hie"/"hia" (Hiedra), nor before a Roman
 * numeral, read as an ordinal ("I Medio B y I Medio A": "primero medio").
 */
const andBefore = (word: string): string =>
  /^[IVX]+(?![\p{L}])/u.test(word) ? 'y' : /^h?i(?![aeiou])/i.test(word.normalize('NFD').replace(/\p{Diacritic}/gu, '')) ? 'e' : 'y';

/** Spanish list: "Martina", "Martina y Tomás", "Ana, Martina e Isabel". */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  const last = items[items.length - 1]!;
  return `${items.slice(0, -1).join(', ')} ${andBefore(last)} ${last}`;
}

/** A student as merge fields name them: first given name and course. */
export interface MergeStudent {
  firstName: string;
  course: string;
}

/** The first given name of "María José Pérez Soto" (first names first, as every name here is written). */
export const firstNameOf = (name: string): string => name.trim().split(/\s+/)[0] ?? '';

/** Who a recipient is, for its values: `staff` keeps the fields as written. */
export type MergeSubject =
  | { kind: 'apoderado'; name: string; students: readonly MergeStudent[] }
  | { kind: 'estudiante'; student: MergeStudent; guardian: string | null }
  | { kind: 'funcionario' };

/** A recipient's values (students in the order given; courses once each, in their students' order). */
export function valuesOf(subject: MergeSubject): MergeValues {
  if (subject.kind === 'funcionario') return {};
  if (subject.kind === 'estudiante') {
    return { estudiante: subject.student.firstName, curso: subject.student.course, apoderado: subject.guardian ?? '' };
  }
  const courses = [...new Set(subject.students.map((s) => s.course))];
  return { estudiante: joinList(subject.students.map((s) => s.firstName)), curso: joinList(courses), apoderado: subject.name };
}

/** GSM-7 units a value takes in an SMS (what the counter counts). */
export const smsUnitsOf = (value: string): number => smsText(value, null).units;

/** Per field, the value that takes the most SMS units among these recipients' (a kept field counts as written). */
export function longestValues(all: Iterable<MergeValues>): MergeValues {
  const best: MergeValues = {};
  const units: Partial<Record<MergeField, number>> = {};
  for (const values of all) {
    for (const field of MERGE_FIELDS) {
      const value = values[field] ?? fieldToken(field);
      const n = smsUnitsOf(value);
      if (units[field] === undefined || n > units[field]!) {
        units[field] = n;
        best[field] = value;
      }
    }
  }
  return best;
}

/** A field as the SMS counter counts it: its longest value and the units it takes. */
export interface CountedField {
  field: MergeField;
  value: string;
  units: number;
}

export interface MergedSmsText extends SmsText {
  /** The fields the content uses, each at its longest value (empty when it uses none). */
  fields: CountedField[];
}

/**
 * The SMS of `content` as its longest recipient gets it: every field filled with its longest value
 * (`longest`, from longestValues; a field with no value there is counted as written).
 */
export function mergedSmsText(content: string, signature: string | null, longest: MergeValues): MergedSmsText {
  const fields = fieldsIn(content).map((field) => {
    const value = longest[field] ?? fieldToken(field);
    return { field, value, units: smsUnitsOf(value) };
  });
  const values: MergeValues = Object.fromEntries(fields.map((f) => [f.field, f.value]));
  const filled = smsText(fillFields(content, values), signature);
  // What the author typed is refused for characters SMS cannot carry; a value's (the "°" of "3° Básico A")
  // is left out at delivery as smsText leaves it out, which the counted units already reflect.
  const { unsupported } = smsText(content, signature);
  return { ...filled, unsupported, ok: unsupported.length === 0 && filled.units <= filled.limit, fields };
}

/** Server's refusal of an SMS too long for its longest recipient, naming the fields. */
export function smsTooLongWithFields(limit: number, units: number, fields: readonly CountedField[]): string {
  const named = fields.map((f) => `${fieldToken(f.field)} («${f.value}», ${f.units} ${f.units === 1 ? 'carácter' : 'caracteres'})`);
  return `El SMS supera los ${limit} caracteres permitidos para el destinatario con el valor más largo de ${joinList(named)}: tendría ${units}. Acórtalo o quita el canal SMS.`;
}

/**
 * The values an SMS is filled with at delivery. Send counted each field at its longest value, so they fit;
 * a scheduled message whose recipients' names or courses changed since could no longer, and would go out
 * as two segments while one was charged. Then the longest value is cut, ending in "...", until the SMS
 * fits its one segment again (the author's own text is never cut).
 */
export function fitSmsValues(content: string, signature: string | null, values: MergeValues): MergeValues {
  const fitted: MergeValues = { ...values };
  const used = fieldsIn(content).filter((field) => fitted[field] !== undefined);
  for (;;) {
    const sms = smsText(fillFields(content, fitted), signature);
    if (sms.units <= sms.limit) return fitted;
    const longest = used.reduce<MergeField | null>(
      (best, field) => (best === null || fitted[field]!.length > fitted[best]!.length ? field : best),
      null,
    );
    if (longest === null || fitted[longest]!.length <= 3) return fitted;
    const value = fitted[longest]!.replace(/\.\.\.$/, '');
    fitted[longest] = `${[...value].slice(0, -1).join('').trimEnd()}...`;
  }
}
