// The three demo schools and their demo staff. Plain data; `generate.ts` turns it into rows.
import { normalizePhone } from '../recipients/phone';
import { DEMO_SCHOOLS } from '../../shared/demo';
import { CHILE, MEXICO, type NamePool } from './names';
import type { Rng } from './prng';
import type { ChannelCode } from '../../shared/codes';

/** A job title in its feminine and masculine form, so a staff member's cargo agrees with their name. */
export interface Gendered {
  f: string;
  m: string;
}

interface ElectiveSpec {
  name: string;
  /** Level names whose students may take it. */
  levels: readonly string[];
  size: number;
}

/** What the school has contracted for compose: channels, the SMS sigla and its balances. */
interface ComposeSpec {
  channels: Readonly<Record<ChannelCode, boolean>>;
  /** 3–4 letters appended to SMS (SPEC §5); only sent while active. */
  signature: { text: string; active: boolean; device: 'cl' | 'latam' };
  /** Monthly SMS limit (0 when SMS is not contracted); balances null = unlimited. */
  quota: { smsMonthlyLimit: number; emailBalance: number | null; whatsappBalance: number | null };
}

export interface SchoolSpec {
  name: string;
  country: 'CL' | 'MX';
  locale: 'es-CL' | 'es-MX';
  timezone: string;
  domain: 'cl' | 'mx';
  phonePrefix: string;
  homeUrl: string;
  chatEnabled: boolean;
  /** Staff e-mail domain; students get `alumnos.<mailDomain>`. */
  mailDomain: string;
  names: NamePool;
  /** In school order; `age` is the students' age during the school year. */
  levels: readonly { name: string; age: number }[];
  sectionsPerLevel: number;
  students: number;
  staff: number;
  /** One each, filled unless a demo user already holds it. */
  leadership: readonly { name: string; gender: 'f' | 'm' }[];
  /** Course head (profesor jefe); `earlyYears` heads the levels below age 6. */
  courseHead: Gendered;
  earlyYearsHead?: Gendered;
  /** Pool for the remaining staff. */
  teachers: readonly Gendered[];
  electives: readonly ElectiveSpec[];
  /** Chilean RUT for students and guardians. */
  rut: boolean;
  /** Students at least this old get an institutional e-mail. */
  studentEmailFromAge: number;
  /** National mobile number without the country code. */
  mobile: (rng: Rng) => string;
  compose: ComposeSpec;
  seed: number;
}

const chileanLevels = [
  { name: 'Pre-kínder', age: 4 },
  { name: 'Kínder', age: 5 },
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => ({ name: `${n}° Básico`, age: n + 5 })),
  ...['I', 'II', 'III', 'IV'].map((roman, i) => ({ name: `${roman} Medio`, age: 14 + i })),
];

const chileanSubjects = [
  'Matemática',
  'Lenguaje y Comunicación',
  'Historia y Geografía',
  'Ciencias Naturales',
  'Inglés',
  'Educación Física',
  'Música',
  'Artes Visuales',
  'Tecnología',
  'Religión',
  'Biología',
  'Química',
  'Física',
  'Filosofía',
];

const chileanTeachers: Gendered[] = [
  ...chileanSubjects.map((s) => ({ f: `Profesora de ${s}`, m: `Profesor de ${s}` })),
  { f: 'Asistente de la educación', m: 'Asistente de la educación' },
  { f: 'Inspectora de patio', m: 'Inspector de patio' },
  { f: 'Educadora diferencial', m: 'Educador diferencial' },
];

const digits = (rng: Rng, n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join('');

/** 9 + eight digits; real mobile ranges start 93–99. */
// Some 9x blocks are unassigned (libphonenumber refuses e.g. 970…); those become 98…, which is, so every
// seeded mobile passes the SMS channel's own check. No extra draw: the rest of the seed stays the same.
const chileanMobile: SchoolSpec['mobile'] = (rng) => {
  const second = rng.int(3, 9);
  const rest = digits(rng, 7);
  const mobile = `9${second}${rest}`;
  return normalizePhone(`+56${mobile}`, 'CL').ok ? mobile : `98${rest}`;
};

export const SAN_ANDRES: SchoolSpec = {
  name: DEMO_SCHOOLS.sanAndres,
  country: 'CL',
  locale: 'es-CL',
  timezone: 'America/Santiago',
  domain: 'cl',
  phonePrefix: '+56',
  homeUrl: 'https://www.sanandres.cl',
  chatEnabled: true,
  mailDomain: 'sanandres.cl',
  names: CHILE,
  levels: chileanLevels,
  sectionsPerLevel: 2,
  students: 800,
  staff: 60,
  leadership: [
    { name: 'Directora', gender: 'f' },
    { name: 'Jefa de UTP', gender: 'f' },
    { name: 'Inspector general', gender: 'm' },
    { name: 'Orientadora', gender: 'f' },
    { name: 'Psicopedagoga', gender: 'f' },
    { name: 'Psicóloga', gender: 'f' },
    { name: 'Secretaria', gender: 'f' },
    { name: 'Encargado de convivencia escolar', gender: 'm' },
    { name: 'Bibliotecaria', gender: 'f' },
    { name: 'Enfermera', gender: 'f' },
  ],
  courseHead: { f: 'Profesora jefe', m: 'Profesor jefe' },
  earlyYearsHead: { f: 'Educadora de párvulos', m: 'Educador de párvulos' },
  teachers: chileanTeachers,
  electives: [
    { name: 'Electivo Biología Celular', levels: ['III Medio', 'IV Medio'], size: 24 },
    { name: 'Electivo Filosofía Política', levels: ['III Medio', 'IV Medio'], size: 22 },
    { name: 'Electivo Límites, Derivadas e Integrales', levels: ['III Medio', 'IV Medio'], size: 20 },
    { name: 'Taller de Fútbol', levels: ['5° Básico', '6° Básico', '7° Básico', '8° Básico'], size: 30 },
    { name: 'Taller de Robótica', levels: ['6° Básico', '7° Básico', '8° Básico', 'I Medio', 'II Medio'], size: 18 },
    { name: 'Taller de Teatro', levels: ['I Medio', 'II Medio', 'III Medio', 'IV Medio'], size: 16 },
    // Enrolment has not opened yet: the picker's "group with no students" flag needs a real case.
    { name: 'Taller de Cerámica', levels: ['3° Básico', '4° Básico', '5° Básico'], size: 0 },
  ],
  rut: true,
  studentEmailFromAge: 12,
  mobile: chileanMobile,
  compose: {
    channels: { 'app-mobile': true, 'e-mail': true, sms: true, whatsapp: true },
    signature: { text: 'CSA', active: true, device: 'cl' },
    quota: { smsMonthlyLimit: 5000, emailBalance: null, whatsappBalance: 2000 },
  },
  seed: 0x5a17a9d5,
};

const ELQUI: SchoolSpec = {
  name: DEMO_SCHOOLS.elqui,
  country: 'CL',
  locale: 'es-CL',
  timezone: 'America/Santiago',
  domain: 'cl',
  phonePrefix: '+56',
  homeUrl: 'https://www.liceoelqui.cl',
  chatEnabled: true,
  mailDomain: 'liceoelqui.cl',
  names: CHILE,
  levels: chileanLevels.slice(8),
  sectionsPerLevel: 1,
  students: 204,
  staff: 18,
  leadership: [
    { name: 'Director', gender: 'm' },
    { name: 'Jefe de UTP', gender: 'm' },
    { name: 'Inspectora general', gender: 'f' },
    { name: 'Orientadora', gender: 'f' },
    { name: 'Secretaria', gender: 'f' },
  ],
  courseHead: { f: 'Profesora jefe', m: 'Profesor jefe' },
  teachers: chileanTeachers,
  electives: [
    { name: 'Taller de Astronomía', levels: ['7° Básico', '8° Básico', 'I Medio', 'II Medio'], size: 20 },
    { name: 'Electivo Química Orgánica', levels: ['III Medio', 'IV Medio'], size: 15 },
  ],
  rut: true,
  studentEmailFromAge: 12,
  mobile: chileanMobile,
  compose: {
    channels: { 'app-mobile': true, 'e-mail': true, sms: true, whatsapp: false },
    signature: { text: 'LBVE', active: false, device: 'cl' },
    quota: { smsMonthlyLimit: 1000, emailBalance: 500, whatsappBalance: 0 },
  },
  seed: 0x0e1a0117,
};

const JUAREZ: SchoolSpec = {
  name: DEMO_SCHOOLS.juarez,
  country: 'MX',
  locale: 'es-MX',
  timezone: 'America/Mexico_City',
  domain: 'mx',
  phonePrefix: '+52',
  homeUrl: 'https://www.benitojuarez.edu.mx',
  chatEnabled: false,
  mailDomain: 'benitojuarez.edu.mx',
  names: MEXICO,
  levels: [
    { name: '1° de Secundaria', age: 12 },
    { name: '2° de Secundaria', age: 13 },
    { name: '3° de Secundaria', age: 14 },
  ],
  sectionsPerLevel: 3,
  students: 297,
  staff: 26,
  leadership: [
    { name: 'Director', gender: 'm' },
    { name: 'Subdirectora académica', gender: 'f' },
    { name: 'Coordinador de actividades tecnológicas', gender: 'm' },
    { name: 'Orientadora educativa', gender: 'f' },
    { name: 'Trabajadora social', gender: 'f' },
    { name: 'Prefecto', gender: 'm' },
    { name: 'Secretaria', gender: 'f' },
  ],
  courseHead: { f: 'Asesora de grupo', m: 'Asesor de grupo' },
  teachers: [
    ...[
      'Matemáticas',
      'Español',
      'Ciencias',
      'Historia',
      'Geografía',
      'Inglés',
      'Educación Física',
      'Artes',
      'Formación Cívica y Ética',
    ].map((s) => ({ f: `Maestra de ${s}`, m: `Maestro de ${s}` })),
    { f: 'Maestra de Taller de Electrónica', m: 'Maestro de Taller de Electrónica' },
    { f: 'Maestra de Taller de Contabilidad', m: 'Maestro de Taller de Contabilidad' },
  ],
  electives: [
    { name: 'Club de Ajedrez', levels: ['1° de Secundaria', '2° de Secundaria', '3° de Secundaria'], size: 18 },
    { name: 'Banda de Guerra', levels: ['1° de Secundaria', '2° de Secundaria', '3° de Secundaria'], size: 28 },
  ],
  rut: false,
  studentEmailFromAge: 12,
  // Ten national digits: a CDMX area code (55/56) and eight more.
  mobile: (rng) => `${rng.pick(['55', '56'])}${rng.int(1, 9)}${digits(rng, 7)}`,
  compose: {
    channels: { 'app-mobile': true, 'e-mail': true, sms: false, whatsapp: true },
    signature: { text: 'ESBJ', active: false, device: 'latam' },
    quota: { smsMonthlyLimit: 0, emailBalance: null, whatsappBalance: 3000 },
  },
  seed: 0x00b3a1e2,
};

export const SCHOOLS: readonly SchoolSpec[] = [SAN_ANDRES, ELQUI, JUAREZ];

/** The people behind the demo logins of shared/demo.ts, keyed by e-mail. */
export const DEMO_PEOPLE: Record<string, { firstNames: string; lastNameFather: string; lastNameMother: string; position: string }> = {
  'administrador@sanandres.cl': {
    firstNames: 'Rodrigo Andrés',
    lastNameFather: 'Fuentes',
    lastNameMother: 'Carrasco',
    position: 'Administrador de plataforma',
  },
  'directora@sanandres.cl': { firstNames: 'María Isabel', lastNameFather: 'Núñez', lastNameMother: 'Peña', position: 'Directora' },
  'utp@sanandres.cl': { firstNames: 'Claudia Andrea', lastNameFather: 'Sepúlveda', lastNameMother: 'Rojas', position: 'Jefa de UTP' },
  'corp.utp@sanandres.cl': {
    firstNames: 'Andrés Ignacio',
    lastNameFather: 'Valenzuela',
    lastNameMother: 'Soto',
    position: 'Coordinador UTP corporativo',
  },
  'docente@sanandres.cl': {
    firstNames: 'Camila Fernanda',
    lastNameFather: 'Muñoz',
    lastNameMother: 'Herrera',
    position: 'Profesora de Matemática',
  },
  'docente.latam@sanandres.cl': {
    firstNames: 'Martín Alonso',
    lastNameFather: 'Ibáñez',
    lastNameMother: 'Contreras',
    position: 'Profesor de Inglés',
  },
  'sinacceso@sanandres.cl': {
    firstNames: 'Jorge Luis',
    lastNameFather: 'Tapia',
    lastNameMother: 'Morales',
    position: 'Profesor de Música',
  },
  'administrador@liceoelqui.cl': {
    firstNames: 'Patricia Soledad',
    lastNameFather: 'Araya',
    lastNameMother: 'Cortés',
    position: 'Administradora de plataforma',
  },
  'docente@liceoelqui.cl': {
    firstNames: 'Felipe Esteban',
    lastNameFather: 'Rojas',
    lastNameMother: 'Pizarro',
    position: 'Profesor de Física',
  },
  'administrador@benitojuarez.edu.mx': {
    firstNames: 'Guadalupe',
    lastNameFather: 'Hernández',
    lastNameMother: 'Ramírez',
    position: 'Administradora de plataforma',
  },
  'docente@benitojuarez.edu.mx': {
    firstNames: 'José Luis',
    lastNameFather: 'Martínez',
    lastNameMother: 'Cruz',
    position: 'Maestro de Matemáticas',
  },
};

/** Leadership (the school's named cargos), a head teacher (of a course), or another teacher or staff member. */
export function staffKind(position: string, leadership: ReadonlySet<string>): 'lead' | 'head' | 'other' {
  if (leadership.has(position)) return 'lead';
  return /^(Profesora? jefe|Educadora? de párvulos|Asesora? de grupo)$/.test(position) ? 'head' : 'other';
}
