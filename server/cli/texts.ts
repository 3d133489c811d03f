// What `npm run hermes` says, in Spanish (the default) and English (`--lang en`, or LANG=en…). The
// validation messages of the school's fields are the server's own (Spanish), as the API answers them.

import type { PreviewCounts as RosterCounts } from '../../shared/roster-contract';

export type Lang = 'es' | 'en';

export const EXIT = { ok: 0, usage: 1, refused: 2, database: 3, mailFailed: 4 } as const;

const es = {
  help: `Hermes: comandos para operadores (un sostenedor, una corporación o quien aloja varios colegios).

Uso: npm run hermes -- <comando> [opciones]

Comandos:
  schools list [--json]                     Lista los colegios: id, nombre, país y funcionarios con cuenta.
  schools create --name <nombre> --country CL|MX [--timezone <zona>] [--locale es-CL|es-MX] [--home-url <url>]
                                            Crea un colegio; la zona horaria y el idioma salen del país si no se dan.
  schools invite-admin --school <id> --email <correo> --name <nombre> [--json]
                                            Invita al primer administrador de un colegio: un enlace por correo.
  roster import <id> <archivo> [--apply] [--school-year <año>] [--conflicts keep|file] [--json]
                                            Importa la nómina de un colegio (CSV o .xlsx): vista previa y, con --apply, la aplica.
  setup-code                                Genera un nuevo código de configuración para /setup (solo sin colegios).
  help [comando]                            Esta ayuda, o la de un comando.

Opciones generales:
  --lang es|en                              Idioma de los mensajes (por defecto español; LANG=en… también elige inglés).
  -h, --help                                Ayuda.

Base de datos: DATABASE_URL si está definida; si no, la base embebida de HERMES_DATA_DIR (por defecto ./data/pglite).
No la abras mientras un servidor usa esa misma base embebida: PGlite admite un solo proceso.

Códigos de salida:
  0  correcto
  1  uso incorrecto (comando u opción desconocidos, falta una opción)
  2  datos rechazados (un campo no válido, un colegio que no existe, un correo ya usado, ya hay colegios,
     un archivo ilegible, columnas por asignar, conflictos sin elegir, una nómina que cambió)
  3  no se pudo abrir la base de datos
  4  invitación registrada, pero su correo no salió (vuelve a ejecutar invite-admin para enviar un enlace nuevo)`,
  commands: {
    list: `Uso: npm run hermes -- schools list [--json]

Lista los colegios, uno por línea: id, nombre, país y cuántos funcionarios tienen cuenta. Con --json, un arreglo JSON.`,
    create: `Uso: npm run hermes -- schools create --name <nombre> --country CL|MX [--timezone <zona>] [--locale es-CL|es-MX] [--home-url <url>]

Crea un colegio. Del país salen el dominio (cl o mx), el prefijo telefónico y, si no se dan, la zona horaria
(America/Santiago o America/Mexico_City) y el idioma (es-CL o es-MX). --home-url es el enlace «Inicio» de los
usuarios (por defecto, la dirección de este Hermes). Escribe el id del colegio creado.`,
    'invite-admin': `Uso: npm run hermes -- schools invite-admin --school <id> --email <correo> --name <nombre> [--json]

Invita al administrador de un colegio como la pantalla de funcionarios invita a cualquiera: una cuenta
invitada, sin contraseña, con el rol colegio-administrador, y un correo con un enlace de un solo uso que vence
en 7 días, donde la persona elige su contraseña. Escribe cuándo vence el enlace (con --json: id, email,
expires_at y mail_sent). El correo sale por SMTP_URL o, sin ella, como archivo .eml en HERMES_OUTBOX_DIR; el
enlace usa HERMES_PUBLIC_URL. Si el correo no sale, la invitación queda registrada y el comando sale con 4.
Con una persona aún invitada como administradora de ese colegio, envía un enlace nuevo y el anterior deja de
servir (así se reenvía un enlace vencido o un correo que no salió).`,
    'roster-import': `Uso: npm run hermes -- roster import <id del colegio> <archivo> [--apply] [--school-year <año>] [--conflicts keep|file] [--json]

Lee la nómina del colegio (CSV o Excel .xlsx, como en la pantalla Nómina) y escribe la vista previa: estudiantes
y apoderados nuevos, modificados, sin cambios y retirados, cursos nuevos y líneas rechazadas con su motivo. Sin
--apply no cambia nada más que el registro de la importación. Con --apply la aplica en una sola transacción.
--school-year es el año escolar de la nómina (por defecto el de la última nómina aplicada). Si un dato del
archivo pisa una corrección hecha a mano, --conflicts keep conserva la corrección y --conflicts file toma el
archivo; sin esa opción, --apply se niega (salida 2). Con columnas que no se reconocen, asígnalas una vez en la
pantalla Nómina: la asignación queda guardada. Con --json escribe la importación en JSON.`,
    'setup-code': `Uso: npm run hermes -- setup-code

Mientras no hay colegios, genera un nuevo código de configuración para la página /setup (el anterior deja de
servir) y lo escribe. Con colegios, no hace nada y sale con 2.`,
  },
  unknownCommand: (name: string) => `Comando desconocido: «${name}». Usa --help para ver los comandos.`,
  badOption: (detail: string) => `Opción no válida: ${detail}. Usa --help para ver las opciones.`,
  missing: (option: string) => `Falta la opción --${option}.`,
  database: (detail: string) => `No se pudo abrir la base de datos: ${detail}`,
  noSchools: 'No hay colegios.',
  header: ['ID', 'NOMBRE', 'PAÍS', 'FUNCIONARIOS'],
  created: (id: number, name: string) => `Colegio creado: ${id} (${name}).`,
  noSuchSchool: (id: string) => `No existe el colegio ${id}.`,
  emailTaken: (email: string) => `Ya existe una cuenta con el correo ${email}.`,
  invited: (email: string, school: string, expiresAt: string) =>
    `Invitación enviada a ${email}, administrador de ${school}. El enlace sirve una vez y vence el ${expiresAt}.`,
  mailFailed: (email: string) =>
    `La invitación de ${email} quedó registrada, pero el correo no se pudo enviar. Revisa SMTP_URL o HERMES_OUTBOX_DIR y vuelve a ejecutar este comando: enviará un enlace nuevo.`,
  field: (field: string, message: string) => `--${field}: ${message}`,
  hasSchools: 'Hermes ya tiene colegios: la página /setup no se usa. Crea colegios con «schools create».',
  setupCode: (code: string) => `Código de configuración (se usa una vez): ${code}`,
  badSchoolYear: (raw: string) => `--school-year: «${raw}» no es un año escolar (un número como 2027).`,
  badConflicts: (raw: string) => `--conflicts: «${raw}» no es keep ni file.`,
  rosterFile: (file: string, detail: string) => `No se pudo leer ${file}: ${detail}`,
  rosterMapping: (headers: string[]) =>
    `Hay columnas que no se reconocen (${headers.join(', ')}): asígnalas una vez en la pantalla Nómina y vuelve a ejecutar el comando.`,
  rosterPreview: (c: RosterCounts) =>
    [
      `Filas: ${c.rows.read} leídas, ${c.rows.valid} válidas, ${c.rows.refused} rechazadas.`,
      `Estudiantes: ${c.students.new} nuevos, ${c.students.changed} modificados, ${c.students.unchanged} sin cambios, ${c.students.withdrawn} retirados.`,
      `Apoderados: ${c.guardians.new} nuevos, ${c.guardians.changed} modificados, ${c.guardians.unchanged} sin cambios.`,
      `Cursos: ${c.courses.new} nuevos, ${c.courses.unchanged} existentes. Conflictos con correcciones a mano: ${c.conflicts}.`,
    ].join('\n'),
  rosterProblem: (line: number, column: string | null, message: string) => `Línea ${line}${column ? ` (${column})` : ''}: ${message}`,
  rosterPreviewed: (id: number) => `Vista previa registrada (importación ${id}). Nada cambió: agrega --apply para aplicarla.`,
  rosterApplied: (id: number) => `Importación ${id} aplicada.`,
  rosterProgress: (reading: boolean, done: number, total: number) =>
    `${done} de ${total} ${total === 1 ? 'fila' : 'filas'} ${reading ? 'leída' : 'escrita'}${total === 1 ? '' : 's'}`,
  rosterConflicts: (n: number) =>
    `${n} ${n === 1 ? 'dato del archivo pisa una corrección hecha' : 'datos del archivo pisan correcciones hechas'} a mano: elige con --conflicts keep (conservarlas) o --conflicts file (tomar el archivo).`,
  rosterStale: 'La nómina del colegio cambió mientras se preparaba la importación: vuelve a ejecutar el comando.',
};

const en: typeof es = {
  help: `Hermes: commands for operators (a school network, or whoever hosts several schools).

Usage: npm run hermes -- <command> [options]

Commands:
  schools list [--json]                     List the schools: id, name, country and staff with an account.
  schools create --name <name> --country CL|MX [--timezone <zone>] [--locale es-CL|es-MX] [--home-url <url>]
                                            Create a school; time zone and locale follow the country unless given.
  schools invite-admin --school <id> --email <e-mail> --name <name> [--json]
                                            Invite a school's first administrator: a link by e-mail.
  setup-code                                Issue a new setup code for /setup (only while there is no school).
  roster import <id> <file> [--apply] [--school-year <year>] [--conflicts keep|file] [--json]
                                            Import a school's roster (CSV or .xlsx): a preview and, with --apply, apply it.
  help [command]                            This help, or a command's.

General options:
  --lang es|en                              Language of the messages (Spanish by default; LANG=en… also picks English).
  -h, --help                                Help.

Database: DATABASE_URL when set; otherwise the embedded database in HERMES_DATA_DIR (default ./data/pglite).
Do not open it while a server uses the same embedded database: PGlite allows one process.

Exit codes:
  0  success
  1  bad usage (unknown command or option, a missing option)
  2  input refused (an invalid field, a school that does not exist, an e-mail in use, schools already exist,
     an unreadable file, columns to assign, conflicts without a choice, a roster that changed)
  3  the database could not be opened
  4  invitation recorded, but its e-mail did not leave (run invite-admin again to send a new link)`,
  commands: {
    list: `Usage: npm run hermes -- schools list [--json]

Lists the schools, one per line: id, name, country and how many staff have an account. With --json, a JSON array.`,
    create: `Usage: npm run hermes -- schools create --name <name> --country CL|MX [--timezone <zone>] [--locale es-CL|es-MX] [--home-url <url>]

Creates a school. The country sets its domain (cl or mx), its phone prefix and, unless given, its time zone
(America/Santiago or America/Mexico_City) and locale (es-CL or es-MX). --home-url is the users' «Inicio» link
(by default, this Hermes's address). Prints the new school's id.`,
    'invite-admin': `Usage: npm run hermes -- schools invite-admin --school <id> --email <e-mail> --name <name> [--json]

Invites a school's administrator the way the staff screen invites anyone: an invited account without a
password, with the colegio-administrador role, and an e-mail with a single-use link valid for 7 days where the
person chooses their password. Prints when the link expires (with --json: id, email, expires_at and
mail_sent). The e-mail leaves through SMTP_URL or, without it, as an .eml file in HERMES_OUTBOX_DIR; the link
uses HERMES_PUBLIC_URL. If the e-mail does not leave, the invitation stays recorded and the command exits with 4.
For someone still invited as that school's administrator, it sends a new link and the previous one stops
working (which is how an expired link or an e-mail that did not leave is sent again).`,
    'roster-import': `Usage: npm run hermes -- roster import <school id> <file> [--apply] [--school-year <year>] [--conflicts keep|file] [--json]

Reads the school's roster (CSV or Excel .xlsx, as on the Nómina screen) and prints the preview: new, changed,
unchanged and withdrawn students and guardians, new courses and refused lines with their reason. Without
--apply nothing changes but the import's record. With --apply it is applied in one transaction.
--school-year is the roster's school year (by default the latest applied roster's). When the file would
overwrite a correction made by hand, --conflicts keep keeps the correction and --conflicts file takes the
file; without it, --apply refuses (exit 2). Columns that are not recognised are assigned once on the Nómina
screen, which saves the mapping. With --json it prints the import as JSON.`,
    'setup-code': `Usage: npm run hermes -- setup-code

While there is no school, issues a new setup code for the /setup page (the previous one stops working) and
prints it. With schools, does nothing and exits with 2.`,
  },
  unknownCommand: (name: string) => `Unknown command: "${name}". Use --help to see the commands.`,
  badOption: (detail: string) => `Invalid option: ${detail}. Use --help to see the options.`,
  missing: (option: string) => `Missing option --${option}.`,
  database: (detail: string) => `Could not open the database: ${detail}`,
  noSchools: 'No schools.',
  header: ['ID', 'NAME', 'COUNTRY', 'STAFF'],
  created: (id: number, name: string) => `School created: ${id} (${name}).`,
  noSuchSchool: (id: string) => `There is no school ${id}.`,
  emailTaken: (email: string) => `An account with the e-mail ${email} already exists.`,
  invited: (email: string, school: string, expiresAt: string) =>
    `Invitation sent to ${email}, administrator of ${school}. The link works once and expires on ${expiresAt}.`,
  mailFailed: (email: string) =>
    `The invitation of ${email} is recorded, but the e-mail could not be sent. Check SMTP_URL or HERMES_OUTBOX_DIR and run this command again: it will send a new link.`,
  field: (field: string, message: string) => `--${field}: ${message}`,
  hasSchools: 'Hermes already has schools: the /setup page is not used. Create schools with "schools create".',
  setupCode: (code: string) => `Setup code (single use): ${code}`,
  badSchoolYear: (raw: string) => `--school-year: "${raw}" is not a school year (a number such as 2027).`,
  badConflicts: (raw: string) => `--conflicts: "${raw}" is neither keep nor file.`,
  rosterFile: (file: string, detail: string) => `Could not read ${file}: ${detail}`,
  rosterMapping: (headers: string[]) =>
    `Some columns are not recognised (${headers.join(', ')}): assign them once on the Nómina screen and run the command again.`,
  rosterPreview: (c: RosterCounts) =>
    [
      `Rows: ${c.rows.read} read, ${c.rows.valid} valid, ${c.rows.refused} refused.`,
      `Students: ${c.students.new} new, ${c.students.changed} changed, ${c.students.unchanged} unchanged, ${c.students.withdrawn} withdrawn.`,
      `Guardians: ${c.guardians.new} new, ${c.guardians.changed} changed, ${c.guardians.unchanged} unchanged.`,
      `Courses: ${c.courses.new} new, ${c.courses.unchanged} existing. Conflicts with corrections made by hand: ${c.conflicts}.`,
    ].join('\n'),
  rosterProblem: (line: number, column: string | null, message: string) => `Line ${line}${column ? ` (${column})` : ''}: ${message}`,
  rosterPreviewed: (id: number) => `Preview recorded (import ${id}). Nothing changed: add --apply to apply it.`,
  rosterApplied: (id: number) => `Import ${id} applied.`,
  rosterProgress: (reading: boolean, done: number, total: number) =>
    `${done} of ${total} ${total === 1 ? 'row' : 'rows'} ${reading ? 'read' : 'written'}`,
  rosterConflicts: (n: number) =>
    `${n} ${n === 1 ? 'value of the file overwrites a correction' : 'values of the file overwrite corrections'} made by hand: choose with --conflicts keep (keep them) or --conflicts file (take the file).`,
  rosterStale: "The school's roster changed while the import was being prepared: run the command again.",
};

export type Texts = typeof es;
export const TEXTS: Record<Lang, Texts> = { es, en };

/** `--lang` wins; otherwise LANG / LC_ALL starting with `en`; otherwise Spanish. */
export function langOf(argv: readonly string[], env: NodeJS.ProcessEnv): Lang {
  const at = argv.findIndex((a) => a === '--lang' || a.startsWith('--lang='));
  const given = at < 0 ? undefined : argv[at]!.includes('=') ? argv[at]!.split('=')[1] : argv[at + 1];
  if (given === 'en' || given === 'es') return given;
  return /^en/i.test(env.LC_ALL || env.LANG || '') ? 'en' : 'es';
}
