// Compose data of the demo schools: the channels each school contracted, per-user channel
// permissions, the SMS signature, quotas, guardians' device facts (app installed, missing phone) and a few
// saved recipient lists. Deterministic like the rest of the seed: per-school PRNGs and fixed dates.
import { GUARDIAN_ROLE } from '../db/schema/school';
import { mulberry32, type Rng } from './prng';
import { appWriters } from './messages';
import type { StudentRow, GuardianRow, StaffRow, RecipientListRow, RecipientListMemberRow, ComposeSeed, SeedData } from './rows';
import type { SchoolSpec } from './schools';
import { type RoleCode, CHANNEL_CODES } from '../../shared/codes';
import { mayUseChannel } from '../staff/policies';

/** Share of guardians with the school app installed (device status blue). */
const APP_INSTALLED_SHARE = 0.6;
/** Share of guardians, among those without the app, whose school record has no mobile (device status red). */
const MISSING_PHONE_SHARE = 0.08;

/** App installs spread over the two school years before the demo "now" (2026-11-20). */
const INSTALLS_FROM = Date.UTC(2024, 2, 1);
const INSTALLS_TO = Date.UTC(2026, 10, 15);
const DAY = 86_400_000;

interface ListSpec {
  owner: string;
  name: string;
  createdAt: Date;
  deletedAt?: Date;
  /** Shared with the school's staff (they read and use it). */
  shared?: boolean;
  /**
   * Since the list was made, this many of its members' students left the school and this many changed
   * course: the list screen's "N miembros ya no están matriculados".
   */
  since?: { withdrawn: number; moved: number };
  /** Guardians (of `students` picked from these levels), with their role. */
  guardians?: { levels: readonly string[]; count: number; role: 1 | 2 };
  students?: { levels: readonly string[]; count: number };
  /** Staff by cargo name (every holder), then `count` more picked at random. */
  staff?: { positions: readonly string[]; count?: number };
}

const at = (month: number, day: number, hour = 12) => new Date(Date.UTC(2026, month - 1, day, hour));

const LISTS: readonly ListSpec[] = [
  {
    owner: 'administrador@sanandres.cl',
    name: 'Directiva del Centro de Padres',
    createdAt: at(3, 16),
    guardians: { levels: ['1° Básico', '4° Básico', '7° Básico', 'II Medio', 'IV Medio'], count: 7, role: GUARDIAN_ROLE.titular },
    staff: { positions: ['Directora', 'Orientadora'] },
    since: { withdrawn: 2, moved: 1 },
  },
  {
    owner: 'administrador@sanandres.cl',
    name: 'Equipo de convivencia escolar',
    createdAt: at(4, 2),
    shared: true,
    staff: { positions: ['Inspector general', 'Encargado de convivencia escolar', 'Psicóloga', 'Orientadora', 'Psicopedagoga'] },
  },
  {
    owner: 'administrador@sanandres.cl',
    name: 'Delegados de curso Enseñanza Media',
    createdAt: at(8, 25),
    students: { levels: ['I Medio', 'II Medio', 'III Medio', 'IV Medio'], count: 8 },
    guardians: { levels: ['I Medio', 'II Medio'], count: 4, role: GUARDIAN_ROLE.suplente },
    staff: { positions: ['Jefa de UTP'] },
  },
  {
    owner: 'administrador@sanandres.cl',
    name: 'Paseo de fin de año 2025',
    createdAt: at(1, 8),
    deletedAt: at(3, 2),
    guardians: { levels: ['IV Medio'], count: 5, role: GUARDIAN_ROLE.titular },
  },
  {
    owner: 'docente@sanandres.cl',
    name: 'Reforzamiento de Matemática',
    createdAt: at(5, 6),
    guardians: { levels: ['5° Básico', '6° Básico'], count: 9, role: GUARDIAN_ROLE.titular },
    students: { levels: ['5° Básico', '6° Básico'], count: 9 },
  },
  {
    owner: 'docente@sanandres.cl',
    name: 'Olimpiada de Matemática',
    createdAt: at(9, 14),
    students: { levels: ['7° Básico', '8° Básico', 'I Medio'], count: 6 },
    staff: { positions: ['Jefa de UTP'], count: 2 },
  },
  {
    owner: 'administrador@benitojuarez.edu.mx',
    name: 'Comité de padres de familia',
    createdAt: at(2, 20),
    guardians: { levels: ['1° de Secundaria', '2° de Secundaria', '3° de Secundaria'], count: 6, role: GUARDIAN_ROLE.titular },
    staff: { positions: ['Director', 'Trabajadora social'] },
  },
];

/**
 * Builds the compose rows and sets `appInstalledAt` / clears `phone` on the guardians in place (the guardian
 * rows are written after this runs). `specs` are the schools in institution order (id = index + 1).
 */
export function generateCompose(data: SeedData, specs: readonly SchoolSpec[]): ComposeSeed {
  const out: ComposeSeed = {
    institutionChannels: [],
    userChannelPermissions: [],
    signatures: [],
    quotas: [],
    recipientLists: [],
    recipientListMembers: [],
  };
  const guardiansBySchool = groupBy(data.guardians, (g) => g.institutionId);
  const writers = appWriters(data.mail);
  specs.forEach((spec, index) => {
    const institutionId = data.institutions[index]!.id;
    const { channels, signature, quota } = spec.compose;
    for (const channel of CHANNEL_CODES) out.institutionChannels.push({ institutionId, channel, enabled: channels[channel] });
    out.signatures.push({
      id: out.signatures.length + 1,
      institutionId,
      device: signature.device,
      domain: spec.domain,
      signature: signature.text,
      isActive: signature.active,
    });
    out.quotas.push({
      institutionId,
      smsMonthlyLimit: quota.smsMonthlyLimit,
      emailBalance: quota.emailBalance,
      whatsappBalance: quota.whatsappBalance,
    });
    // Its own stream, so the people generated before stay exactly as they were.
    assignDevices(mulberry32(spec.seed ^ 0x0de71ce5), guardiansBySchool.get(institutionId) ?? [], writers);
  });

  const rolesByUser = groupBy(data.userRoles, (r) => r.userId);
  const schoolChannels = new Map(specs.map((spec, i) => [data.institutions[i]!.id, spec.compose.channels]));
  for (const user of data.users) {
    const roles = (rolesByUser.get(user.id) ?? []).map((r) => r.code as RoleCode);
    const contracted = schoolChannels.get(user.institutionId)!;
    for (const channel of CHANNEL_CODES) {
      // A permission for a channel the school has not contracted would offer nothing, so it is stored off.
      const enabled = contracted[channel] && mayUseChannel(roles, channel);
      out.userChannelPermissions.push({ userId: user.id, channel, enabled });
    }
  }

  addLists(out, data);
  return out;
}

/** `writers`: guardians who wrote from the app (messages.ts `appWriters`), who have it since the day before. */
function assignDevices(rng: Rng, guardians: GuardianRow[], writers: ReadonlyMap<number, number>): void {
  for (const g of guardians) {
    if (rng.chance(APP_INSTALLED_SHARE)) {
      g.appInstalledAt = new Date(
        INSTALLS_FROM + rng.int(0, Math.floor((INSTALLS_TO - INSTALLS_FROM) / DAY)) * DAY + rng.int(8, 22) * 3_600_000,
      );
    } else {
      g.appInstalledAt = null;
      // A number missing from the record only where there is no app (a writer has one, below).
      if (rng.chance(MISSING_PHONE_SHARE) && !writers.has(g.id)) g.phone = null;
    }
    const wrote = writers.get(g.id);
    if (wrote !== undefined && (!g.appInstalledAt || g.appInstalledAt.getTime() > wrote)) g.appInstalledAt = new Date(wrote - DAY);
  }
}

function addLists(out: ComposeSeed, data: SeedData): void {
  const usersByEmail = new Map(data.users.map((u) => [u.email, u]));
  const levelNames = new Map(data.levels.map((l) => [l.id, l.name]));
  const courseLevel = new Map(data.courses.map((c) => [c.id, levelNames.get(c.levelId)!]));
  const positionNames = new Map(data.positions.map((p) => [p.id, p.name]));
  const guardianOf = new Map<string, number>();
  for (const link of data.studentGuardians) guardianOf.set(`${link.studentId}:${link.role}`, link.guardianId);

  LISTS.forEach((spec, index) => {
    const owner = usersByEmail.get(spec.owner);
    if (!owner) throw new Error(`La lista "${spec.name}" es de ${spec.owner}, que no existe en la semilla`);
    const institutionId = owner.institutionId;
    const rng = mulberry32(0x11575eed + index);
    const list: RecipientListRow = {
      id: out.recipientLists.length + 1,
      institutionId,
      ownerUserId: owner.id,
      name: spec.name,
      createdAt: spec.createdAt,
      updatedAt: spec.createdAt,
      shared: spec.shared ?? false,
      deletedAt: spec.deletedAt ?? null,
      // The owner trashed their own list.
      deletedByUserId: spec.deletedAt ? owner.id : null,
    };
    out.recipientLists.push(list);
    const seen = new Set<string>();
    const add = (member: Omit<RecipientListMemberRow, 'id' | 'listId'>) => {
      const key = `${member.memberKind}:${member.memberRefId}`;
      if (seen.has(key)) return;
      seen.add(key);
      out.recipientListMembers.push({ id: out.recipientListMembers.length + 1, listId: list.id, ...member });
    };
    const studentsIn = (levels: readonly string[]): StudentRow[] =>
      data.students.filter((s) => s.institutionId === institutionId && levels.includes(courseLevel.get(s.courseId)!));

    if (spec.guardians) {
      const { levels, count, role } = spec.guardians;
      const withGuardian = studentsIn(levels).filter((s) => guardianOf.has(`${s.id}:${role}`));
      for (const s of rng.shuffle(withGuardian).slice(0, count)) {
        add({ memberKind: 'apoderado', memberRefId: guardianOf.get(`${s.id}:${role}`)!, studentId: s.id, role, courseId: s.courseId });
      }
    }
    if (spec.students) {
      for (const s of rng.shuffle(studentsIn(spec.students.levels)).slice(0, spec.students.count)) {
        add({ memberKind: 'estudiante', memberRefId: s.id, studentId: null, role: null, courseId: s.courseId });
      }
    }
    if (spec.staff) {
      const schoolStaff = data.staff.filter((s) => s.institutionId === institutionId && s.userId !== owner.id);
      const named: StaffRow[] = spec.staff.positions.flatMap((name) =>
        schoolStaff.filter((s) => s.positionId != null && positionNames.get(s.positionId) === name),
      );
      const extra = rng.shuffle(schoolStaff.filter((s) => !named.includes(s))).slice(0, spec.staff.count ?? 0);
      for (const s of [...named, ...extra]) add({ memberKind: 'funcionario', memberRefId: s.id, studentId: null, role: null });
    }
    if (spec.since)
      ageList(
        out.recipientListMembers.filter((m) => m.listId === list.id),
        spec.since,
        data,
        spec.createdAt,
      );
  });
}

/**
 * The school year moved on under a list: the first `withdrawn` members' students left the school after the
 * list was made, and the next `moved` ones were added while in another course of their school (the member
 * keeps that course), as if they changed course since.
 */
function ageList(members: RecipientListMemberRow[], since: { withdrawn: number; moved: number }, data: SeedData, madeAt: Date): void {
  const studentById = new Map(data.students.map((s) => [s.id, s]));
  const withStudent = members.filter((m) => (m.memberKind === 'estudiante' ? m.memberRefId : m.studentId) != null);
  const studentOf = (m: RecipientListMemberRow) => studentById.get(m.memberKind === 'estudiante' ? m.memberRefId : m.studentId!)!;
  for (const m of withStudent.slice(0, since.withdrawn)) {
    studentOf(m).withdrawnAt = new Date(madeAt.getTime() + 60 * DAY);
  }
  for (const m of withStudent.slice(since.withdrawn, since.withdrawn + since.moved)) {
    const student = studentOf(m);
    const other = data.courses.find((c) => c.institutionId === student.institutionId && c.id !== student.courseId)!;
    m.courseId = other.id;
  }
}

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}
