// Runtime checks for the people answers (people-contract.ts), in structs.ts' conventions: `type()` so extra
// fields do not break older clients, annotated Structs (`Describe` cannot spell the numeric literal unions) to keep in step with the contract.
import { array, enums, literal, nullable, number, string, type, union, type Struct } from 'superstruct';
import {
  PEOPLE_KINDS,
  type GuardianStudent,
  type PeoplePage,
  type PersonRecord,
  type PersonSummary,
  type StudentGuardian,
} from './people-contract';

const PersonSummaryStruct: Struct<PersonSummary, unknown> = type({
  kind: enums(PEOPLE_KINDS),
  id: number(),
  name: string(),
  dni: nullable(string()),
  tipo_documento_id: nullable(union([literal(1), literal(2), literal(3)])),
  course: nullable(string()),
  withdrawn_at: nullable(string()),
  fono_celular: nullable(string()),
  email: nullable(string()),
});

/** `GET /people` → one numbered page (SPEC §7 `{ data, meta, links }`). */
export const PeoplePageStruct: Struct<PeoplePage, unknown> = type({
  data: array(PersonSummaryStruct),
  meta: type({ current_page: number(), last_page: number(), per_page: number(), total: number() }),
  links: type({ next: nullable(string()), prev: nullable(string()) }),
});

const StudentGuardianStruct: Struct<StudentGuardian, unknown> = type({
  id: number(),
  name: string(),
  rol_adulto_id: union([literal(1), literal(2)]),
  relationship: string(),
  fono_celular: nullable(string()),
  email: nullable(string()),
});

const GuardianStudentStruct: Struct<GuardianStudent, unknown> = type({
  id: number(),
  name: string(),
  course: string(),
  rol_adulto_id: union([literal(1), literal(2)]),
  relationship: string(),
  withdrawn_at: nullable(string()),
});

const PersonRecordStruct: Struct<PersonRecord, unknown> = type({
  kind: enums(PEOPLE_KINDS),
  id: number(),
  nombres: string(),
  apellido_paterno: string(),
  apellido_materno: string(),
  name: string(),
  dni: nullable(string()),
  tipo_documento_id: nullable(union([literal(1), literal(2), literal(3)])),
  fono_celular: nullable(string()),
  email: nullable(string()),
  course: nullable(type({ id: number(), name: string() })),
  withdrawn_at: nullable(string()),
  guardians: array(StudentGuardianStruct),
  students: array(GuardianStudentStruct),
});

/** `{ data: PersonRecord }` answers. */
export const PersonRecordDataStruct: Struct<{ data: PersonRecord }, unknown> = type({ data: PersonRecordStruct });
