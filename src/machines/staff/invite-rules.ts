// «Invitar personal»: what the form checks before sending, and how pasted lines or a CSV file become people.
// A line is name, e-mail and role, separated by `;` or `,` (or a tab, as a spreadsheet pastes), with an
// optional header naming the columns (nombre/correo/rol, in any order; without one the order is that). A role
// is its code or its name as staff say it ("Docente", "profesora", "Jefe de UTP"…); left empty, a teacher.
// Every row keeps its problems, shown in the preview before anything is sent; the server checks again.
import Papa from 'papaparse';
import { ROLE_CODES, ROLE_NAMES, type RoleCode } from '../../../shared/codes';
import { fold } from '../../../shared/fold';
import { INVITE_MAX_PEOPLE, STAFF_EMAIL_MAX, STAFF_NAME_MAX, type InvitePerson } from '../../../shared/staff-contract';

export type InviteProblem = 'nameRequired' | 'nameTooLong' | 'emailRequired' | 'emailInvalid' | 'emailRepeated' | 'roleUnknown';

export interface InviteRow {
  /** The line of the text it came from (1-based, the header counted). */
  line: number;
  name: string;
  email: string;
  /** The role as written, and the role it names (null: none it could be). */
  roleText: string;
  role: RoleCode | null;
  problems: InviteProblem[];
}

export interface ParsedInvite {
  rows: InviteRow[];
  /** More rows than one invitation may carry (INVITE_MAX_PEOPLE). */
  tooMany: boolean;
}

/** Ways staff write a role, folded (lower case, no accents), beside each role's code and name. */
const ROLE_WORDS: Readonly<Record<string, RoleCode>> = {
  profesor: 'docente',
  profesora: 'docente',
  teacher: 'docente',
  administradora: 'colegio-administrador',
  admin: 'colegio-administrador',
  directora: 'colegio-director',
  utp: 'colegio-utp',
  'jefa de utp': 'colegio-utp',
  'utp corporacion': 'corp-utp',
};

/** The role a cell names, or null; an empty cell is a teacher, the role most invitations are for. */
export function roleOf(text: string): RoleCode | null {
  const word = fold(text.trim()).replace(/\s+/g, ' ');
  if (word === '') return 'docente';
  for (const code of ROLE_CODES) if (word === code || word === fold(ROLE_NAMES[code])) return code;
  return ROLE_WORDS[word] ?? null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The problems of one person as typed (`seen`: e-mails of the rows above, folded, to find repeats). */
export function personProblems(
  person: { name: string; email: string; role: RoleCode | null },
  seen: ReadonlySet<string> = new Set(),
): InviteProblem[] {
  const problems: InviteProblem[] = [];
  const name = person.name.trim();
  const email = person.email.trim();
  if (name === '') problems.push('nameRequired');
  else if (name.length > STAFF_NAME_MAX) problems.push('nameTooLong');
  if (email === '') problems.push('emailRequired');
  else if (email.length > STAFF_EMAIL_MAX || !EMAIL.test(email)) problems.push('emailInvalid');
  else if (seen.has(email.toLowerCase())) problems.push('emailRepeated');
  if (person.role === null) problems.push('roleUnknown');
  return problems;
}

type Column = 'name' | 'email' | 'role' | 'skip';
const HEADER_WORDS: Readonly<Record<string, Exclude<Column, 'skip'>>> = {
  nombre: 'name',
  name: 'name',
  'nombre completo': 'name',
  correo: 'email',
  'correo electronico': 'email',
  email: 'email',
  'e-mail': 'email',
  mail: 'email',
  rol: 'role',
  role: 'role',
  cargo: 'role',
};

/** A first line that holds no e-mail and names a column is a header: the columns' order, from it. */
function headerOf(cells: readonly string[]): Column[] | null {
  if (cells.some((cell) => cell.includes('@'))) return null;
  const columns = cells.map((cell): Column => HEADER_WORDS[fold(cell.trim())] ?? 'skip');
  return columns.some((column) => column !== 'skip') ? columns : null;
}

/** Pasted lines or a CSV file's text, as rows to preview (blank lines skipped). */
export function parseInvite(text: string): ParsedInvite {
  const parsed = Papa.parse<string[]>(text.trim(), { delimiter: '', delimitersToGuess: [';', ',', '\t'], skipEmptyLines: 'greedy' });
  const lines = parsed.data.filter((cells) => cells.some((cell) => cell.trim() !== ''));
  const first = lines[0];
  const header = first ? headerOf(first) : null;
  const columns: Column[] = header ?? ['name', 'email', 'role'];
  const body = header ? lines.slice(1) : lines;
  const seen = new Set<string>();
  const rows = body.map((cells, index): InviteRow => {
    const cell = (column: Column) => (cells[columns.indexOf(column)] ?? '').trim();
    const person = { name: cell('name'), email: cell('email'), roleText: cell('role') };
    const role = roleOf(person.roleText);
    const problems = personProblems({ ...person, role }, seen);
    if (person.email) seen.add(person.email.toLowerCase());
    return { line: index + 1 + (header ? 1 : 0), ...person, role, problems };
  });
  return { rows, tooMany: rows.length > INVITE_MAX_PEOPLE };
}

/** Whether every row can be sent (at least one, none with a problem, not too many). */
export const isSendable = (parsed: ParsedInvite): boolean =>
  parsed.rows.length > 0 && !parsed.tooMany && parsed.rows.every((row) => row.problems.length === 0);

/** The people a sendable preview sends, in its order (the answer's `index` is the row's position). */
export const peopleOf = (rows: readonly InviteRow[]): InvitePerson[] =>
  rows.map((row) => ({ name: row.name.trim(), email: row.email.trim(), role: row.role ?? 'docente' }));
