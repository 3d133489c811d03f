// Runtime checks for the audit log's answers (audit-contract.ts), in structs.ts' conventions: `type()` so
// extra fields do not break older clients.
import { array, boolean, enums, nullable, number, record, string, type, union, type Struct } from 'superstruct';
import {
  AUDIT_ACTIONS,
  AUDIT_ACTOR_KINDS,
  AUDIT_SUBJECT_KINDS,
  type AuditDetailValue,
  type AuditPage,
  type AuditRow,
} from './audit-contract';

const DetailValueStruct = nullable(union([string(), number(), boolean(), array(number()), array(string())])) as Struct<
  AuditDetailValue,
  unknown
>;

const AuditRowStruct = type({
  id: number(),
  at: string(),
  action: enums(AUDIT_ACTIONS),
  actor: type({ kind: enums(AUDIT_ACTOR_KINDS), id: nullable(number()), name: nullable(string()) }),
  ip: nullable(string()),
  subject: nullable(type({ kind: enums(AUDIT_SUBJECT_KINDS), id: number(), name: nullable(string()) })),
  detail: nullable(record(string(), DetailValueStruct)),
}) as unknown as Struct<AuditRow, unknown>;

/** `GET /audit` → one numbered page. */
export const AuditPageStruct: Struct<AuditPage, unknown> = type({
  data: array(AuditRowStruct),
  meta: type({ current_page: number(), last_page: number(), per_page: number(), total: number() }),
  links: type({ next: nullable(string()), prev: nullable(string()) }),
});
