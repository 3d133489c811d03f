// The school's people and groups: levels, courses, electives, students, guardians, staff and their cargos
// (positions), and who belongs to what.
import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { id, institutionId } from './institutions';

/** School levels (Pre-kínder … IV Medio, 1° de Secundaria …), ordered by `position` within a school. */
export const levels = pgTable(
  'levels',
  {
    id: id(),
    institutionId: institutionId(),
    name: text('name').notNull(),
    position: smallint('position').notNull(),
  },
  (t) => [uniqueIndex('levels_institution_position_idx').on(t.institutionId, t.position)],
);

export const courses = pgTable(
  'courses',
  {
    id: id(),
    institutionId: institutionId(),
    levelId: integer('level_id')
      .notNull()
      .references(() => levels.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Recipient group kind as the API names it (`grupo_type`); electives are `electivo`. */
    groupType: text('group_type').notNull().default('curso'),
  },
  (t) => [
    index('courses_institution_idx').on(t.institutionId),
    index('courses_level_idx').on(t.levelId),
    uniqueIndex('courses_institution_name_idx').on(t.institutionId, t.name),
  ],
);

export const students = pgTable(
  'students',
  {
    id: id(),
    institutionId: institutionId(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'restrict' }),
    firstNames: text('first_names').notNull(),
    lastNameFather: text('last_name_father').notNull(),
    lastNameMother: text('last_name_mother').notNull(),
    /** National id (Chilean RUT with check digit); null when the school did not provide one. */
    dni: text('dni'),
    /** SPEC `tipo_documento_id` of `dni`: 1 RUT, 2 CURP, 3 other (shared/recipient-lists-contract.ts). */
    documentType: smallint('document_type'),
    /** When the student left the school (no longer enrolled); null while enrolled. */
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    /** Null when the school's file gave none (the roster import does not require it). */
    birthDate: date('birth_date', { mode: 'string' }),
    email: text('email'),
    /** When the school erased the student at their request (server/privacy-requests/): the row stays, anonymised. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
  },
  (t) => [index('students_institution_idx').on(t.institutionId), index('students_course_idx').on(t.courseId)],
);

/** Adults responsible for students (apoderados). */
export const guardians = pgTable(
  'guardians',
  {
    id: id(),
    institutionId: institutionId(),
    firstNames: text('first_names').notNull(),
    lastNameFather: text('last_name_father').notNull(),
    lastNameMother: text('last_name_mother').notNull(),
    dni: text('dni'),
    /** SPEC `tipo_documento_id` of `dni`: 1 RUT, 2 CURP, 3 other. */
    documentType: smallint('document_type'),
    email: text('email'),
    /** E.164, e.g. +56912345678 or +525512345678. */
    phone: text('phone'),
    /** When the guardian installed the school app (device status blue); null when not installed. */
    appInstalledAt: timestamp('app_installed_at', { withTimezone: true }),
    /**
     * How many of the guardian's last 3 finished device deliveries (app, SMS, WhatsApp) were not received;
     * 3 is the yellow device status (SPEC §9). Kept by the delivery engine as deliveries end.
     */
    deviceMisses: smallint('device_misses').notNull().default(0),
    /**
     * The delivery engine's verdict on `phone` (server/recipients/phone.ts normalizePhone, the check the SMS
     * adapter makes before texting): `sms_phone` is the number it was taken for and `sms_ok` whether an SMS
     * can be sent to it. Stale when `sms_phone` is not `phone`; settled by server/recipients/sms-phones.ts.
     */
    smsPhone: text('sms_phone'),
    smsOk: boolean('sms_ok').notNull().default(false),
    /** When the school erased the guardian at their request: the row stays, anonymised, so counts stay right. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
  },
  (t) => [
    index('guardians_institution_idx').on(t.institutionId),
    // The guardian app finds every school of a signed-in phone on each call (server/app-api/tokens.ts).
    index('guardians_phone_idx').on(t.phone),
    // The few rows whose phone has no verdict yet (server/recipients/sms-phones.ts settleSmsPhones).
    index('guardians_sms_stale_idx').on(t.institutionId).where(sql`${t.phone} is distinct from ${t.smsPhone}`),
    check('guardians_phone_e164_check', sql`${t.phone} ~ '^\\+[1-9][0-9]{7,14}$'`),
  ],
);

/** 1 = titular, 2 = suplente (the API's `rol_adulto_id`). */
export const GUARDIAN_ROLE = { titular: 1, suplente: 2 } as const;

export const studentGuardians = pgTable(
  'student_guardians',
  {
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    guardianId: integer('guardian_id')
      .notNull()
      .references(() => guardians.id, { onDelete: 'cascade' }),
    role: smallint('role').notNull(),
    /** Madre, Padre, Abuela… as the school registered it. */
    relationship: text('relationship').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.studentId, t.guardianId] }),
    uniqueIndex('student_guardians_student_role_idx').on(t.studentId, t.role),
    index('student_guardians_guardian_idx').on(t.guardianId),
    check('student_guardians_role_check', sql`${t.role} in (1, 2)`),
  ],
);

/**
 * The course a student had in a school year, kept from the roster import on: when a new year moves students
 * to other courses, what happened in an earlier year (reception, dashboards, rankings) still reads the course
 * of then. A year with no row reads the student's course now (`students.course_id`).
 */
export const enrolments = pgTable(
  'enrolments',
  {
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
    schoolYear: smallint('school_year').notNull(),
    institutionId: institutionId(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.studentId, t.schoolYear] }), index('enrolments_institution_year_idx').on(t.institutionId, t.schoolYear)],
);

/** Staff job titles (cargos): Profesor jefe, Inspector general… */
export const positions = pgTable(
  'positions',
  {
    id: id(),
    institutionId: institutionId(),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('positions_institution_name_idx').on(t.institutionId, t.name)],
);

export const staff = pgTable(
  'staff',
  {
    id: id(),
    institutionId: institutionId(),
    positionId: integer('position_id').references(() => positions.id, { onDelete: 'set null' }),
    /** Set when this staff member can sign in. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    firstNames: text('first_names').notNull(),
    lastNameFather: text('last_name_father').notNull(),
    lastNameMother: text('last_name_mother').notNull(),
    email: text('email'),
    phone: text('phone'),
    /** When the school erased the staff member at their request: the row stays, anonymised. */
    erasedAt: timestamp('erased_at', { withTimezone: true }),
  },
  (t) => [
    index('staff_institution_idx').on(t.institutionId),
    uniqueIndex('staff_user_idx').on(t.userId),
    check('staff_phone_e164_check', sql`${t.phone} ~ '^\\+[1-9][0-9]{7,14}$'`),
  ],
);

export const electives = pgTable(
  'electives',
  {
    id: id(),
    institutionId: institutionId(),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('electives_institution_name_idx').on(t.institutionId, t.name)],
);

export const electiveStudents = pgTable(
  'elective_students',
  {
    electiveId: integer('elective_id')
      .notNull()
      .references(() => electives.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => students.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.electiveId, t.studentId] }), index('elective_students_student_idx').on(t.studentId)],
);

/**
 * Who changed a person's contact data, and what (one row per changed field, written in the same transaction
 * as the change): the school can answer "who put this number here" without an audit log of everything.
 */
export const contactChanges = pgTable(
  'contact_changes',
  {
    id: id(),
    institutionId: institutionId(),
    personKind: text('person_kind', { enum: ['apoderado', 'estudiante', 'funcionario'] }).notNull(),
    personId: integer('person_id').notNull(),
    /** The field as the API names it (`nombres`, `apellido_materno`, `fono_celular`…). */
    field: text('field').notNull(),
    oldValue: text('old_value'),
    newValue: text('new_value'),
    changedBy: integer('changed_by').references(() => users.id, { onDelete: 'set null' }),
    /** The roster import that made the change (roster_imports.id); null for a change made by hand. */
    rosterImportId: integer('roster_import_id'),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('contact_changes_person_idx').on(t.institutionId, t.personKind, t.personId)],
);
