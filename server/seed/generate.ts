// Builds the demo data set as plain rows (no database). Deterministic: the same options give the same rows,
// byte for byte, because all randomness comes from per-school seeded PRNGs and all dates are fixed.
import { ACCESS_POLICY } from '../../shared/contract';
import { DEMO_LOGINS, DEMO_PASSWORD } from '../../shared/demo';
import { GUARDIAN_ROLE } from '../db/schema/school';
import { emailSlug } from './names';
import { mulberry32, type Rng } from './prng';
import { generateCompose } from './compose';
import type { LevelRow, CourseRow, StudentRow, GuardianRow, ElectiveRow, SeedData } from './rows';
import { generateTemplates } from './templates';
import { generateNews } from './news';
import { rutCheckDigit } from '../../shared/person-rules';
import { DOCUMENT_TYPES } from '../../shared/recipient-lists-contract';
import { addBulkInboxTo, generateMessages } from './messages';
import { generateSmsUse } from './sms-use';
import { computeDeviceMisses } from './activity-deliveries';
import { keepMailboxesToContractedChannels } from './mailbox-channels';
import { addDemoFamily } from './demo-family';
import { DEMO_PEOPLE, SAN_ANDRES, SCHOOLS, staffKind, type Gendered, type SchoolSpec } from './schools';
import { ADMIN_ROLES, ROLE_NAMES, type RoleCode } from '../../shared/codes';
import { ADMIN_POLICIES, BASE_POLICIES, scopeFor } from '../staff/policies';

export interface SeedOptions {
  /** Students of Colegio San Andrés (default 800); courses and staff scale with it. */
  students?: number;
  /** Extra inbox messages for administrador@sanandres.cl (benchmarks); default 0. */
  messages?: number;
  /**
   * The seed's clock for the SMS use (this month and the months before it); default the start of this
   * hour, so two seeds made within one hour are the same.
   */
  now?: Date;
}

/** The school year the ages refer to; fixed so birth dates never drift. */
const SCHOOL_YEAR = 2026;
const GUARDIAN_MAIL_DOMAINS = ['example.com', 'example.net', 'example.org'];

export function generateSeed(options: SeedOptions = {}): SeedData {
  const students = options.students ?? SAN_ANDRES.students;
  if (!Number.isInteger(students) || students < 50) throw new Error('students debe ser un entero ≥ 50');
  const scale = students / SAN_ANDRES.students;
  const specs = SCHOOLS.map((s) =>
    s === SAN_ANDRES
      ? {
          ...s,
          students,
          sectionsPerLevel: Math.max(1, Math.round(s.sectionsPerLevel * scale)),
          staff: Math.round(s.staff * scale),
          // An empty elective stays empty at any scale (it is the "no students" case of the picker).
          electives: s.electives.map((e) => ({ ...e, size: e.size === 0 ? 0 : Math.max(5, Math.round(e.size * scale)) })),
        }
      : s,
  );

  const out: SeedData = {
    institutions: [],
    levels: [],
    courses: [],
    students: [],
    guardians: [],
    studentGuardians: [],
    positions: [],
    staff: [],
    electives: [],
    electiveStudents: [],
    users: [],
    userRoles: [],
    userPolicies: [],
    mail: { messages: [], recipients: [], attachments: [], entries: [] },
    compose: {
      institutionChannels: [],
      userChannelPermissions: [],
      signatures: [],
      quotas: [],
      recipientLists: [],
      recipientListMembers: [],
    },
    templates: [],
    smsUse: { usage: [], limits: [], deliveries: [] },
    news: { categories: [], posts: [], groups: [], attachments: [] },
  };
  for (const spec of specs) addSchool(out, spec);
  checkDemoLogins(out);
  out.mail = generateMessages(out);
  // After the demo mailboxes, so they stay exactly as they were (their colleagues' messages keep no author).
  addStaffLogins(out, specs);
  out.compose = generateCompose(out, specs);
  out.templates = generateTemplates(out);
  // The school year of activity is generated with the SMS use (its SMS are what a past month used).
  const now = options.now ?? new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
  out.smsUse = generateSmsUse(out, now, specs);
  const news = generateNews(out, now, out.mail.attachments.reduce((max, a) => Math.max(max, a.id), 0) + 1);
  out.news = news.news;
  out.mail.files = [...(out.mail.files ?? []), ...news.files];
  keepMailboxesToContractedChannels(out, new Map(specs.map((s, i) => [out.institutions[i]!.id, s.compose.channels])));
  computeDeviceMisses(out, out.smsUse.deliveries);
  addBulkInboxTo(out, options.messages ?? 0);
  addDemoFamily(out);
  return out;
}

interface Person {
  firstNames: string;
  lastNameFather: string;
  lastNameMother: string;
}

interface Family {
  /** Titular first, then suplente when there is one. */
  guardians: { person: GuardianRow; relationship: string }[];
  children: StudentRow[];
}

function addSchool(out: SeedData, spec: SchoolSpec): void {
  const rng = mulberry32(spec.seed);
  const institutionId = out.institutions.length + 1;
  out.institutions.push({
    id: institutionId,
    name: spec.name,
    country: spec.country,
    locale: spec.locale,
    timezone: spec.timezone,
    domain: spec.domain,
    phonePrefix: spec.phonePrefix,
    homeUrl: spec.homeUrl,
    chatEnabled: spec.chatEnabled,
  });

  // Levels and courses (sections A, B, C…).
  const courseAge = new Map<number, number>();
  const courseLevelName = new Map<number, string>();
  const schoolCourses: CourseRow[] = [];
  spec.levels.forEach((level, position) => {
    const levelRow: LevelRow = { id: out.levels.length + 1, institutionId, name: level.name, position: position + 1 };
    out.levels.push(levelRow);
    for (let s = 0; s < spec.sectionsPerLevel; s++) {
      const course: CourseRow = {
        id: out.courses.length + 1,
        institutionId,
        levelId: levelRow.id,
        name: `${level.name} ${String.fromCharCode(65 + s)}`,
        groupType: 'curso',
      };
      out.courses.push(course);
      schoolCourses.push(course);
      courseAge.set(course.id, level.age);
      courseLevelName.set(course.id, level.name);
    }
  });

  // Seats per course: the exact total, unevenly spread like real enrolment.
  const weights = schoolCourses.map(() => 0.85 + rng.next() * 0.3);
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const capacity = weights.map((w) => Math.floor((spec.students * w) / weightSum));
  for (let i = 0; capacity.reduce((a, b) => a + b, 0) < spec.students; i++) capacity[i % capacity.length]! += 1;
  const seats = rng.shuffle(schoolCourses.flatMap((c, i) => Array<number>(capacity[i]!).fill(c.id)));

  // Families: siblings share surnames and guardians, and usually sit in different courses.
  const usedEmails = new Set<string>();
  const families: Family[] = [];
  const schoolStudents: StudentRow[] = [];
  const phone = () => `${spec.phonePrefix}${spec.mobile(rng)}`;
  let seat = 0;
  while (seat < seats.length) {
    const size = Math.min(
      rng.weighted([
        [1, 70],
        [2, 23],
        [3, 7],
      ] as const),
      seats.length - seat,
    );
    const mother = person(rng, spec, 'f');
    const father = person(rng, spec, 'm');
    const children: StudentRow[] = [];
    for (let k = 0; k < size; k++) {
      const courseId = seats[seat++]!;
      const gender = rng.chance(0.5) ? 'f' : 'm';
      const child: StudentRow = {
        id: 0, // assigned after sorting into class lists
        institutionId,
        courseId,
        firstNames: givenNames(rng, spec, gender),
        lastNameFather: father.lastNameFather,
        lastNameMother: mother.lastNameFather,
        dni: spec.rut ? rut(rng.int(22_000_000, 27_500_000)) : null,
        documentType: spec.rut ? DOCUMENT_TYPES.rut : null,
        birthDate: birthDate(rng, courseAge.get(courseId)!),
        email: null,
      };
      if (courseAge.get(courseId)! >= spec.studentEmailFromAge) {
        child.email = uniqueEmail(
          usedEmails,
          `${emailSlug(firstWord(child.firstNames))}.${emailSlug(child.lastNameFather)}`,
          `alumnos.${spec.mailDomain}`,
        );
      }
      children.push(child);
      schoolStudents.push(child);
    }
    const adult = (p: Person): GuardianRow => ({
      id: 0,
      institutionId,
      ...p,
      dni: spec.rut ? rut(rng.int(8_000_000, 20_000_000)) : null,
      documentType: spec.rut ? DOCUMENT_TYPES.rut : null,
      email: uniqueEmail(
        usedEmails,
        `${emailSlug(firstWord(p.firstNames))}.${emailSlug(p.lastNameFather)}${rng.int(1, 99)}`,
        rng.pick(GUARDIAN_MAIL_DOMAINS),
      ),
      phone: phone(),
    });
    const guardians: Family['guardians'] = [];
    const twoParents = rng.chance(0.85);
    const motherFirst = rng.chance(0.65);
    if (twoParents) {
      const [first, second] = motherFirst
        ? [
            { p: mother, r: 'Madre' },
            { p: father, r: 'Padre' },
          ]
        : [
            { p: father, r: 'Padre' },
            { p: mother, r: 'Madre' },
          ];
      guardians.push({ person: adult(first.p), relationship: first.r });
      if (rng.chance(0.7)) guardians.push({ person: adult(second.p), relationship: second.r });
    } else {
      const single = motherFirst ? { p: mother, r: 'Madre' } : { p: father, r: 'Padre' };
      guardians.push({ person: adult(single.p), relationship: single.r });
      if (rng.chance(0.4)) {
        const gender = rng.chance(0.7) ? 'f' : 'm';
        const relative = person(rng, spec, gender);
        // A grandparent on the single parent's side carries that parent's paternal surname.
        relative.lastNameFather = single.p.lastNameMother;
        guardians.push({ person: adult(relative), relationship: gender === 'f' ? 'Abuela' : 'Abuelo' });
      }
    }
    families.push({ guardians, children });
  }

  // Ids follow the class lists: course by course, alphabetical by surnames then names.
  const collator = new Intl.Collator('es', { sensitivity: 'base' });
  schoolStudents.sort(
    (a, b) =>
      a.courseId - b.courseId ||
      collator.compare(a.lastNameFather, b.lastNameFather) ||
      collator.compare(a.lastNameMother, b.lastNameMother) ||
      collator.compare(a.firstNames, b.firstNames),
  );
  for (const s of schoolStudents) {
    s.id = out.students.length + 1;
    out.students.push(s);
  }
  for (const family of families) {
    family.guardians.forEach(({ person: g, relationship }, index) => {
      g.id = out.guardians.length + 1;
      out.guardians.push(g);
      for (const child of family.children) {
        out.studentGuardians.push({
          studentId: child.id,
          guardianId: g.id,
          role: index === 0 ? GUARDIAN_ROLE.titular : GUARDIAN_ROLE.suplente,
          relationship,
        });
      }
    });
  }

  addStaffAndUsers(out, spec, rng, institutionId, schoolCourses, courseAge, usedEmails, phone);

  for (const elective of spec.electives) {
    const row: ElectiveRow = { id: out.electives.length + 1, institutionId, name: elective.name };
    out.electives.push(row);
    if (elective.size === 0) continue;
    const eligible = schoolStudents.filter((s) => elective.levels.includes(courseLevelName.get(s.courseId)!));
    const members = rng
      .shuffle(eligible)
      .slice(0, elective.size)
      .sort((a, b) => a.id - b.id);
    for (const m of members) out.electiveStudents.push({ electiveId: row.id, studentId: m.id });
  }
}

function addStaffAndUsers(
  out: SeedData,
  spec: SchoolSpec,
  rng: Rng,
  institutionId: number,
  schoolCourses: CourseRow[],
  courseAge: Map<number, number>,
  usedEmails: Set<string>,
  phone: () => string,
): void {
  const positionIds = new Map<string, number>();
  const positionId = (name: string) => {
    let id = positionIds.get(name);
    if (id === undefined) {
      id = out.positions.length + 1;
      positionIds.set(name, id);
      out.positions.push({ id, institutionId, name });
    }
    return id;
  };
  const staffEmail = (p: Person) =>
    uniqueEmail(usedEmails, `${emailSlug(firstWord(p.firstNames))}.${emailSlug(p.lastNameFather)}`, spec.mailDomain);
  const addStaff = (p: Person, position: string, email: string, userId: number | null) => {
    out.staff.push({
      id: out.staff.length + 1,
      institutionId,
      positionId: positionId(position),
      userId,
      ...p,
      email,
      phone: phone(),
    });
  };

  // Demo logins first: they are real staff of their school and take their cargo.
  const taken = new Set<string>();
  let count = 0;
  for (const login of DEMO_LOGINS.filter((l) => l.school === spec.name)) {
    const who = DEMO_PEOPLE[login.email];
    if (!who) throw new Error(`Falta la persona del login de demostración ${login.email} en server/seed/schools.ts`);
    const role = login.role as RoleCode;
    const isAdmin = ADMIN_ROLES.includes(role);
    const userId = out.users.length + 1;
    const { position, ...p } = who;
    usedEmails.add(login.email);
    out.users.push({
      id: userId,
      institutionId,
      email: login.email.toLowerCase(),
      password: DEMO_PASSWORD,
      name: `${p.firstNames} ${p.lastNameFather} ${p.lastNameMother}`,
      device: login.device,
      domain: spec.domain,
      scope: scopeFor([role]),
      options: { url: { home: spec.homeUrl } },
    });
    out.userRoles.push({ userId, code: role, name: ROLE_NAMES[role] });
    const policies = login.access ? [...BASE_POLICIES] : BASE_POLICIES.filter((x) => x !== ACCESS_POLICY);
    if (isAdmin) policies.push(...ADMIN_POLICIES);
    for (const name of policies) out.userPolicies.push({ userId, name });
    addStaff(p, position, login.email, userId);
    taken.add(position);
    count++;
  }

  for (const lead of spec.leadership) {
    if (taken.has(lead.name)) continue;
    const p = person(rng, spec, lead.gender);
    addStaff(p, lead.name, staffEmail(p), null);
    count++;
  }
  for (const course of schoolCourses) {
    const early = courseAge.get(course.id)! < 6 && spec.earlyYearsHead;
    const gender = rng.chance(early ? 0.95 : 0.6) ? 'f' : 'm';
    const p = person(rng, spec, gender);
    addStaff(p, genderedTitle(early ? spec.earlyYearsHead! : spec.courseHead, gender), staffEmail(p), null);
    count++;
  }
  for (let i = 0; count < spec.staff; i++, count++) {
    const gender = rng.chance(0.6) ? 'f' : 'm';
    const p = person(rng, spec, gender);
    addStaff(p, genderedTitle(spec.teachers[i % spec.teachers.length]!, gender), staffEmail(p), null);
  }
}

/** Share of a school's staff (besides the demo logins) with a Hermes account of their own, by kind of cargo. */
const LOGIN_SHARE = { lead: 1, head: 0.97, other: 0.85 };

/**
 * Most staff of a real school sign in to Hermes, not only the demo logins: leadership and head teachers all or
 * nearly all, subject teachers and support staff most. Appended after every school's rows with their own PRNG
 * stream, so the ids and data generated before stay as they were. Role `docente` (no data screens); their
 * password is none the demo knows.
 */
function addStaffLogins(out: SeedData, specs: readonly SchoolSpec[]): void {
  const rng = mulberry32(0x5eed1061);
  const positions = new Map(out.positions.map((p) => [p.id, p.name]));
  specs.forEach((spec, index) => {
    const institutionId = out.institutions[index]!.id;
    const leadership = new Set(spec.leadership.map((l) => l.name));
    for (const s of out.staff) {
      if (s.institutionId !== institutionId || s.userId != null) continue;
      const kind = staffKind(positions.get(s.positionId!) ?? '', leadership);
      if (!rng.chance(LOGIN_SHARE[kind])) continue;
      const userId = out.users.length + 1;
      out.users.push({
        id: userId,
        institutionId,
        email: s.email!.toLowerCase(),
        password: null,
        name: `${s.firstNames} ${s.lastNameFather} ${s.lastNameMother}`,
        device: rng.chance(0.5) ? 'latam' : 'cl',
        domain: spec.domain,
        scope: scopeFor(['docente']),
        options: { url: { home: spec.homeUrl } },
      });
      out.userRoles.push({ userId, code: 'docente', name: ROLE_NAMES.docente });
      for (const name of BASE_POLICIES) out.userPolicies.push({ userId, name });
      s.userId = userId;
    }
  });
}

function checkDemoLogins(out: SeedData): void {
  for (const login of DEMO_LOGINS) {
    if (!out.users.some((u) => u.email === login.email)) {
      throw new Error(`El login de demostración ${login.email} no tiene colegio (${login.school})`);
    }
  }
}

function genderedTitle(title: Gendered, gender: 'f' | 'm'): string {
  return gender === 'f' ? title.f : title.m;
}

function person(rng: Rng, spec: SchoolSpec, gender: 'f' | 'm'): Person {
  const lastNameFather = rng.pick(spec.names.surnames);
  let lastNameMother = rng.pick(spec.names.surnames);
  if (lastNameMother === lastNameFather) lastNameMother = rng.pick(spec.names.surnames);
  return { firstNames: givenNames(rng, spec, gender), lastNameFather, lastNameMother };
}

/** One or two given names ("Sofía Ignacia"), never the same name twice. */
function givenNames(rng: Rng, spec: SchoolSpec, gender: 'f' | 'm'): string {
  const pool = gender === 'f' ? spec.names.female : spec.names.male;
  const first = rng.pick(pool);
  if (first.includes(' ') || rng.chance(0.45)) return first;
  const second = rng.pick(pool);
  return second === first || second.includes(' ') ? first : `${first} ${second}`;
}

function firstWord(text: string): string {
  return text.split(' ')[0]!;
}

function uniqueEmail(used: Set<string>, local: string, domain: string): string {
  for (let n = 1; ; n++) {
    const email = `${local}${n === 1 ? '' : n}@${domain}`;
    if (!used.has(email)) {
      used.add(email);
      return email;
    }
  }
}

/** Chilean RUT `12345678-5` with its modulo-11 check digit. */
export function rut(body: number): string {
  return `${body}-${rutCheckDigit(body)}`;
}

/** A date in the twelve months that make a child `age` during the school year (cut-off 1 April). */
function birthDate(rng: Rng, age: number): string {
  const start = Date.UTC(SCHOOL_YEAR - age - 1, 3, 1);
  const day = new Date(start + rng.int(0, 364) * 86_400_000);
  return day.toISOString().slice(0, 10);
}
