// `npm run hermes -- <command>`: the operators' command line (schools list / create / invite-admin, setup-code),
// on the same database the server uses (DATABASE_URL, else the embedded one in HERMES_DATA_DIR). Texts and
// exit codes in server/cli/texts.ts; scripts may rely on the codes, which `--help` lists.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SCHOOL_ADMIN_ROLE } from '../../shared/codes';
import { COUNTRY_DEFAULTS, isCountry, personProblems, schoolProblems } from '../../shared/school-rules';
import { configFromEnv } from '../config';
import { type Db, type DbHandle, openDb } from '../db/client';
import { createLogger } from '../log';
import { applyImport, type ConflictChoices } from '../roster/apply';
import { calendarYear, conflictKeys, findImport, problemsOf } from '../roster/imports';
import type { RosterReport } from '../roster/progress';
import { importFile } from '../roster/upload';
import { createSchool, emailTaken, hasSchool, invitedAdministrator, listSchools, schoolExists } from '../schools/schools';
import { dropSetupCode, issueSetupCode } from '../setup/code';
import { invite, type Inviter, resendInvitation } from '../staff/invitations';
import { accountMailer } from '../staff/mail';
import { EXIT, langOf, type Texts, TEXTS } from './texts';

type ExitCode = (typeof EXIT)[keyof typeof EXIT];

class Exit extends Error {
  constructor(
    readonly code: ExitCode,
    message: string,
  ) {
    super(message);
  }
}

const OPTIONS = {
  lang: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  name: { type: 'string' },
  country: { type: 'string' },
  timezone: { type: 'string' },
  locale: { type: 'string' },
  'home-url': { type: 'string' },
  school: { type: 'string' },
  email: { type: 'string' },
  apply: { type: 'boolean' },
  'school-year': { type: 'string' },
  conflicts: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>['values'];

const COMMANDS = ['list', 'create', 'invite-admin', 'setup-code', 'roster-import'] as const;
type Command = (typeof COMMANDS)[number];

/** `schools list` → list, `setup-code` → setup-code, `roster import <id> <file>` → roster-import; null for anything else. */
function commandOf(positionals: readonly string[], forHelp = false): Command | null {
  const [first, second] = positionals;
  if (first === 'setup-code' && second === undefined) return 'setup-code';
  if (first === 'roster' && second === 'import' && positionals.length === (forHelp ? 2 : 4)) return 'roster-import';
  if (first === 'schools' && positionals.length === 2 && (COMMANDS as readonly string[]).includes(second!) && second !== 'setup-code')
    return second as Command;
  return null;
}

function required(values: Values, option: 'name' | 'country' | 'school' | 'email', t: Texts): string {
  const value = values[option];
  if (value === undefined) throw new Exit(EXIT.usage, t.missing(option));
  return value;
}

function refuseProblems(problems: Record<string, string>, t: Texts): void {
  const lines = Object.entries(problems).map(([field, message]) => t.field(field === 'homeUrl' ? 'home-url' : field, message));
  if (lines.length > 0) throw new Exit(EXIT.refused, lines.join('\n'));
}

/** What an invitation of the command line left: the account, its link's expiry, whether the e-mail went out. */
interface Invited {
  id: number;
  expiresAt: Date;
  mailSent: boolean;
}

/**
 * Invites the school's administrator as the staff screen invites anyone (server/staff/invitations.ts), with
 * no user as the inviter; an administrator still invited gets a new link (the earlier one stops working),
 * which is how an operator recovers from an e-mail that did not leave or a link that expired.
 */
async function inviteAdministrator(db: Db, institutionId: number, person: { name: string; email: string }, t: Texts): Promise<Invited> {
  const config = configFromEnv();
  const mailer = accountMailer(config, createLogger(config.log));
  const inviter: Inviter = { institutionId, userId: null };
  const pending = await invitedAdministrator(db, institutionId, person.email);
  if (pending !== null) {
    const resent = await resendInvitation(db, inviter, pending, mailer);
    if (resent.kind !== 'done' || resent.expiresAt === null || resent.mailSent === null)
      throw new Exit(EXIT.refused, t.emailTaken(person.email));
    return { id: pending, expiresAt: resent.expiresAt, mailSent: resent.mailSent };
  }
  if (await emailTaken(db, person.email)) throw new Exit(EXIT.refused, t.emailTaken(person.email));
  // Administrators are on latam, as the setup page's and the demo schools': it shows them the news wall too.
  const [outcome] = await invite(db, inviter, [{ ...person, role: SCHOOL_ADMIN_ROLE, device: 'latam' }], mailer);
  if (outcome?.outcome === 'invited') return { id: outcome.id, expiresAt: new Date(outcome.expires_at), mailSent: outcome.mail_sent };
  if (outcome?.outcome === 'refused') throw new Exit(EXIT.refused, t.field(outcome.field, outcome.reason));
  // Someone took the address since the look-up.
  throw new Exit(EXIT.refused, t.emailTaken(person.email));
}

/** On a terminal, and not for --json, the rows read and written on one line of stderr rewritten in place. */
function terminalProgress(t: Texts, json: boolean): RosterReport | undefined {
  if (json || !process.stderr.isTTY) return undefined;
  return async ({ phase, done, total }) => {
    process.stderr.write(`\r${t.rosterProgress(phase === 'reading', done, total)}\x1b[K${done === total ? '\n' : ''}`);
  };
}

/**
 * `roster import <school> <file>`: the preview the Nómina screen shows, as text; with --apply, applied as the
 * screen applies it, by no one signed in. Columns the reader does not recognise are assigned on the screen
 * (the mapping is saved there and used here).
 */
async function rosterImport(db: Db, positionals: readonly string[], values: Values, t: Texts, out: (line: string) => void): Promise<void> {
  const [, , schoolId, file] = positionals as [string, string, string, string];
  const rawYear = values['school-year'];
  if (rawYear !== undefined && !/^[0-9]{4}$/.test(rawYear)) throw new Exit(EXIT.usage, t.badSchoolYear(rawYear));
  const choice = values.conflicts;
  if (choice !== undefined && choice !== 'keep' && choice !== 'file') throw new Exit(EXIT.usage, t.badConflicts(choice));
  const school = /^[1-9][0-9]{0,9}$/.test(schoolId) ? await schoolExists(db, Number(schoolId)) : null;
  if (!school) throw new Exit(EXIT.refused, t.noSuchSchool(schoolId));
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await readFile(file));
  } catch (err) {
    throw new Exit(EXIT.refused, t.rosterFile(file, err instanceof Error ? err.message : String(err)));
  }
  const scope = { userId: null, institutionId: Number(schoolId) };
  const schoolYear = rawYear === undefined ? null : Number(rawYear);
  const progress = terminalProgress(t, values.json === true);
  const outcome = await importFile(db, scope, { bytes, fileName: path.basename(file), mapping: null, schoolYear }, progress);
  if (outcome.kind === 'file') throw new Exit(EXIT.refused, t.rosterFile(file, outcome.message));
  if (outcome.kind === 'school_year') throw new Exit(EXIT.refused, outcome.message);
  if (outcome.kind === 'mapping') {
    throw new Exit(EXIT.refused, t.rosterMapping(outcome.headers.filter((_, i) => outcome.suggested[i] === 'ignore')));
  }
  const previewed = outcome.import;
  const report = async (id: number) => {
    if (values.json) return out(JSON.stringify((await findImport(db, scope, id)) ?? previewed));
    out(t.rosterPreview(previewed.counts));
    const found = await problemsOf(db, scope, id);
    for (const p of found?.problems ?? []) out(t.rosterProblem(p.line, p.column, p.message));
  };
  if (!values.apply) {
    await report(previewed.id);
    if (!values.json) out(t.rosterPreviewed(previewed.id));
    return;
  }
  const conflicts = (await conflictKeys(db, scope, previewed.id)) ?? [];
  if (conflicts.length > 0 && choice === undefined) {
    await report(previewed.id);
    throw new Exit(EXIT.refused, t.rosterConflicts(conflicts.length));
  }
  const choices: ConflictChoices = {};
  for (const key of conflicts) choices[key] = choice === 'keep' ? 'keep' : 'file';
  const applied = await applyImport(db, scope, previewed.id, choices, await calendarYear(db, scope.institutionId, new Date()), progress);
  if (applied.kind === 'stale') throw new Exit(EXIT.refused, t.rosterStale);
  if (applied.kind !== 'done') throw new Exit(EXIT.refused, t.rosterConflicts(conflicts.length));
  await report(previewed.id);
  if (!values.json) out(t.rosterApplied(previewed.id));
}

async function run(
  command: Command,
  values: Values,
  positionals: readonly string[],
  handle: DbHandle,
  t: Texts,
  out: (line: string) => void,
): Promise<void> {
  const { db } = handle;
  if (command === 'roster-import') return rosterImport(db, positionals, values, t, out);
  if (command === 'list') {
    const schools = await listSchools(db);
    if (values.json) return out(JSON.stringify(schools));
    if (schools.length === 0) return out(t.noSchools);
    const rows = [t.header, ...schools.map((s) => [String(s.id), s.name, s.country, String(s.staff)])];
    const widths = t.header.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
    for (const row of rows)
      out(
        row
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      );
    return;
  }
  if (command === 'create') {
    const name = required(values, 'name', t);
    const country = required(values, 'country', t).toUpperCase();
    const defaults = isCountry(country) ? COUNTRY_DEFAULTS[country] : null;
    const school = {
      name,
      country,
      timezone: values.timezone ?? defaults?.timezone,
      locale: values.locale ?? defaults?.locale,
      // The users' «Inicio» link; without one, this Hermes itself.
      homeUrl: values['home-url'] ?? `${configFromEnv().publicUrl}/`,
    };
    const problems = schoolProblems(school);
    // The default address may be a local one (http://localhost:3000/), which a school would not type.
    if (values['home-url'] === undefined) delete problems.homeUrl;
    refuseProblems(problems, t);
    const id = await db.transaction(async (tx) => {
      const created = await createSchool(tx, {
        ...school,
        country: country as 'CL' | 'MX',
        timezone: school.timezone!,
        locale: school.locale as 'es-CL' | 'es-MX',
      });
      // The install has a school now: a setup code still kept would open nothing, so it goes.
      await dropSetupCode(tx);
      return created;
    });
    out(values.json ? JSON.stringify({ id }) : t.created(id, name.trim()));
    return;
  }
  if (command === 'invite-admin') {
    const schoolId = required(values, 'school', t);
    const email = required(values, 'email', t).trim().toLowerCase();
    const name = required(values, 'name', t);
    refuseProblems(personProblems({ name, email }), t);
    const school = /^[1-9][0-9]{0,9}$/.test(schoolId) ? await schoolExists(db, Number(schoolId)) : null;
    if (!school) throw new Exit(EXIT.refused, t.noSuchSchool(schoolId));
    const invited = await inviteAdministrator(db, Number(schoolId), { name, email }, t);
    const expiresAt = invited.expiresAt.toISOString();
    if (values.json) out(JSON.stringify({ id: invited.id, email, expires_at: expiresAt, mail_sent: invited.mailSent }));
    else if (invited.mailSent) out(t.invited(email, school.name, expiresAt));
    // The account and its link stand; only the e-mail is missing, and a new run sends a new one.
    if (!invited.mailSent) throw new Exit(EXIT.mailFailed, t.mailFailed(email));
    return;
  }
  if (await hasSchool(db)) throw new Exit(EXIT.refused, t.hasSchools);
  out(t.setupCode((await issueSetupCode(db, true))!));
}

async function main(argv: string[]): Promise<ExitCode> {
  const t = TEXTS[langOf(argv, process.env)];
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    console.error(t.badOption(err instanceof Error ? err.message : String(err)));
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0 || (positionals[0] === 'help' && positionals.length === 1)) {
    // Asked for help: out, 0. Nothing asked at all: the same help, on stderr, as bad usage.
    if (values.help || positionals[0] === 'help') console.log(t.help);
    else console.error(t.help);
    return values.help || positionals[0] === 'help' ? EXIT.ok : EXIT.usage;
  }
  const asked = positionals[0] === 'help' ? positionals.slice(1) : values.help ? positionals : null;
  // `help create` as well as `help schools create`.
  const helpFor =
    asked && asked.length === 1 && asked[0] === 'roster'
      ? ['roster', 'import']
      : asked && asked.length === 1 && asked[0] !== 'setup-code' && asked[0] !== 'schools'
        ? ['schools', ...asked]
        : asked;
  const command = commandOf(helpFor ?? positionals, helpFor !== null);
  if (!command) {
    console.error(t.unknownCommand((helpFor ?? positionals).join(' ')));
    return EXIT.usage;
  }
  if (helpFor) {
    console.log(t.commands[command]);
    return EXIT.ok;
  }

  let handle: DbHandle;
  try {
    handle = await openDb();
    await handle.migrate();
  } catch (err) {
    console.error(t.database(err instanceof Error ? err.message : String(err)));
    return EXIT.database;
  }
  try {
    await run(command, values, positionals, handle, t, (line) => console.log(line));
    return EXIT.ok;
  } catch (err) {
    if (err instanceof Exit) {
      console.error(err.message);
      return err.code;
    }
    throw err;
  } finally {
    await handle.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
