// Runtime checks for the recipient-list bodies (recipient-lists-contract.ts), in compose-structs.ts'
// conventions: `type()` so extra fields do not break older clients, `Describe` (or an annotated Struct where
// `Describe` cannot spell a numeric literal union) to keep in step with the contract.
import { array, boolean, enums, literal, nullable, number, string, type, union, type Describe, type Struct } from 'superstruct';
import type {
  NumberedPage,
  RecipientList,
  RecipientListMember,
  RecipientListSummary,
  TrashedRecipientList,
  UserToEdit,
} from './recipient-lists-contract';

/** One numbered page of `item`s (SPEC §7 `{ data, meta, links }`). */
const numberedPage = <T>(item: Struct<T, unknown>): Struct<NumberedPage<T>, unknown> =>
  type({
    data: array(item),
    meta: type({ current_page: number(), last_page: number(), per_page: number(), total: number() }),
    links: type({ next: nullable(string()), prev: nullable(string()) }),
  });

export const RecipientListStruct: Describe<RecipientList> = type({ id: number(), name: string(), users_count: number() });
export const RecipientListPageStruct = numberedPage(RecipientListStruct);

const summaryFields = {
  id: number(),
  name: string(),
  users_count: number(),
  shared: boolean(),
  is_owner: boolean(),
  owner_name: string(),
  updated_at: string(),
  stale_count: number(),
};

const RecipientListSummaryStruct: Describe<RecipientListSummary> = type(summaryFields);
const TrashedRecipientListStruct: Describe<TrashedRecipientList> = type({
  ...summaryFields,
  deleted_at: string(),
  deleted_by_name: string(),
});
export const RecipientListSummaryPageStruct = numberedPage(RecipientListSummaryStruct);
export const TrashedRecipientListPageStruct = numberedPage(TrashedRecipientListStruct);

const userFields = {
  id: number(),
  user_id: number(),
  user_type: enums(['apoderado', 'estudiante', 'funcionario'] as const),
  name: string(),
  email: nullable(string()),
  phone: nullable(string()),
  list_id: number(),
  list_name: string(),
  nombre_rol: string(),
  group_id: nullable(number()),
  group_type: nullable(string()),
  rol_adulto_id: nullable(union([literal(1), literal(2)])),
  student_id: nullable(number()),
  course: nullable(string()),
};

/** A member as the list screen shows it: the SPEC §3 fields, the document, the device and why it is stale. */
const RecipientListMemberStruct: Struct<RecipientListMember, unknown> = type({
  ...userFields,
  student_name: nullable(string()),
  dni: nullable(string()),
  device_status: nullable(enums(['blue', 'green', 'yellow', 'red'] as const)),
  stale: nullable(enums(['not_enrolled', 'course_changed'] as const)),
});

const UserToEditStruct: Struct<UserToEdit, unknown> = type({
  user_type: enums(['apoderado', 'estudiante', 'funcionario'] as const),
  id: number(),
  ficha_adulto_id: nullable(number()),
  ficha_estudiante_id: nullable(number()),
  fono_celular: nullable(string()),
  email: nullable(string()),
  dni: nullable(string()),
  tipo_documento_id: nullable(union([literal(1), literal(2), literal(3)])),
  nombres: string(),
  apellido_paterno: string(),
  apellido_materno: string(),
  name: string(),
  can_edit: boolean(),
});

// --- `{ data }` envelopes -----------------------------------------------------------------------------

export const RecipientListSummaryBodyStruct = type({ data: RecipientListSummaryStruct });
export const RecipientListMembersBodyStruct = type({ data: array(RecipientListMemberStruct) });
export const UserToEditBodyStruct = type({ data: UserToEditStruct });
export const RemovedBodyStruct = type({ data: type({ removed: number() }) });
