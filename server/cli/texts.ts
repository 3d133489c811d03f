// What `npm run hermes` says, in Spanish (the default) and English (`--lang en`, or LANG=en…). The
// validation messages of the school's fields are the server's own (Spanish), as the API answers them.

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
  2  datos rechazados (un campo no válido, un colegio que no existe, un correo ya usado, ya hay colegios)
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
  help [command]                            This help, or a command's.

General options:
  --lang es|en                              Language of the messages (Spanish by default; LANG=en… also picks English).
  -h, --help                                Help.

Database: DATABASE_URL when set; otherwise the embedded database in HERMES_DATA_DIR (default ./data/pglite).
Do not open it while a server uses the same embedded database: PGlite allows one process.

Exit codes:
  0  success
  1  bad usage (unknown command or option, a missing option)
  2  input refused (an invalid field, a school that does not exist, an e-mail in use, schools already exist)
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
