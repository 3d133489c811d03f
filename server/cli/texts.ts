// What `npm run hermes` says, in Spanish (the default) and English (`--lang en`, or LANG=en…). The
// validation messages of the school's fields are the server's own (Spanish), as the API answers them.

export type Lang = 'es' | 'en';

export const EXIT = { ok: 0, usage: 1, refused: 2, database: 3 } as const;

const es = {
  help: `Hermes: comandos para operadores (un sostenedor, una corporación o quien aloja varios colegios).

Uso: npm run hermes -- <comando> [opciones]

Comandos:
  schools list [--json]                     Lista los colegios: id, nombre, país y funcionarios con cuenta.
  schools create --name <nombre> --country CL|MX [--timezone <zona>] [--locale es-CL|es-MX] [--home-url <url>]
                                            Crea un colegio; la zona horaria y el idioma salen del país si no se dan.
  schools invite-admin --school <id> --email <correo> --name <nombre>
                                            Crea el primer administrador de un colegio.
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
  3  no se pudo abrir la base de datos`,
  commands: {
    list: `Uso: npm run hermes -- schools list [--json]

Lista los colegios, uno por línea: id, nombre, país y cuántos funcionarios tienen cuenta. Con --json, un arreglo JSON.`,
    create: `Uso: npm run hermes -- schools create --name <nombre> --country CL|MX [--timezone <zona>] [--locale es-CL|es-MX] [--home-url <url>]

Crea un colegio. Del país salen el dominio (cl o mx), el prefijo telefónico y, si no se dan, la zona horaria
(America/Santiago o America/Mexico_City) y el idioma (es-CL o es-MX). --home-url es el enlace «Inicio» de los
usuarios (por defecto, la dirección de este Hermes). Escribe el id del colegio creado.`,
    'invite-admin': `Uso: npm run hermes -- schools invite-admin --school <id> --email <correo> --name <nombre>

Crea el administrador de un colegio, con el rol colegio-administrador y acceso a Hermes. La cuenta queda sin
contraseña: la persona la elige con «¿Olvidaste tu contraseña?» en la página de inicio de sesión.`,
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
  invited: (email: string, school: string) =>
    `Administrador creado: ${email} en ${school}. Sin contraseña aún: la elige con «¿Olvidaste tu contraseña?» en /login.`,
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
  schools invite-admin --school <id> --email <e-mail> --name <name>
                                            Create a school's first administrator.
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
  3  the database could not be opened`,
  commands: {
    list: `Usage: npm run hermes -- schools list [--json]

Lists the schools, one per line: id, name, country and how many staff have an account. With --json, a JSON array.`,
    create: `Usage: npm run hermes -- schools create --name <name> --country CL|MX [--timezone <zone>] [--locale es-CL|es-MX] [--home-url <url>]

Creates a school. The country sets its domain (cl or mx), its phone prefix and, unless given, its time zone
(America/Santiago or America/Mexico_City) and locale (es-CL or es-MX). --home-url is the users' «Inicio» link
(by default, this Hermes's address). Prints the new school's id.`,
    'invite-admin': `Usage: npm run hermes -- schools invite-admin --school <id> --email <e-mail> --name <name>

Creates a school's administrator, with the colegio-administrador role and access to Hermes. The account has no
password yet: its owner chooses one through «¿Olvidaste tu contraseña?» on the sign-in page.`,
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
  invited: (email: string, school: string) =>
    `Administrator created: ${email} at ${school}. No password yet: they choose one through «¿Olvidaste tu contraseña?» on /login.`,
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
