// Runtime checks for the roster import's answers (roster-contract.ts), in structs.ts' conventions: `type()` so
// extra fields do not break older clients, `Describe` (or an annotated Struct where `Describe` cannot spell a
// union of shapes) to keep in step with the contract.
import { array, boolean, enums, literal, nullable, number, string, type, union, type Describe, type Struct } from 'superstruct';
import type { NumberedPage } from './recipient-lists-contract';
import type { FieldChange, PreviewCounts, PreviewPerson, RosterImport, RosterProgress, RosterReadAnswer } from './roster-contract';
import { IMPORT_STATES, PROGRESS_PHASES, ROSTER_FIELDS } from './roster-contract';

const numberedPage = <T>(item: Struct<T, unknown>): Struct<NumberedPage<T>, unknown> =>
  type({
    data: array(item),
    meta: type({ current_page: number(), last_page: number(), per_page: number(), total: number() }),
    links: type({ next: nullable(string()), prev: nullable(string()) }),
  });

const PreviewCountsStruct: Describe<PreviewCounts> = type({
  students: type({ new: number(), changed: number(), unchanged: number(), withdrawn: number() }),
  guardians: type({ new: number(), changed: number(), unchanged: number() }),
  courses: type({ new: number(), unchanged: number() }),
  rows: type({ read: number(), valid: number(), refused: number() }),
  conflicts: number(),
});

const RosterImportStruct: Describe<RosterImport> = type({
  id: number(),
  state: enums(IMPORT_STATES),
  file_name: string(),
  file_hash: string(),
  school_year: number(),
  created_at: string(),
  created_by: string(),
  applied_at: nullable(string()),
  counts: PreviewCountsStruct,
});

/** `POST /roster/imports` → the columns to assign, or the preview. */
export const RosterReadAnswerStruct: Struct<RosterReadAnswer, unknown> = union([
  type({ status: literal('mapping'), headers: array(string()), suggested: array(enums(ROSTER_FIELDS)), header_line: number() }),
  type({ status: literal('preview'), import: RosterImportStruct }),
]);

const FieldChangeStruct: Describe<FieldChange> = type({
  field: string(),
  from: nullable(string()),
  to: nullable(string()),
  manual: boolean(),
});

const PreviewPersonStruct: Describe<PreviewPerson> = type({
  kind: enums(['student', 'guardian'] as const),
  change: enums(['new', 'changed', 'unchanged', 'withdrawn'] as const),
  match: enums(['document', 'name_phone', 'new'] as const),
  id: nullable(number()),
  name: string(),
  document: nullable(string()),
  course: nullable(string()),
  lines: array(number()),
  changes: array(FieldChangeStruct),
});

export const PreviewPeoplePageStruct = numberedPage(PreviewPersonStruct);
export const RosterImportPageStruct = numberedPage(RosterImportStruct);
export const RosterImportBodyStruct = type({ data: RosterImportStruct });

/** One `progress` line of a streamed preview or apply. */
export const RosterProgressStruct: Describe<RosterProgress> = type({ phase: enums(PROGRESS_PHASES), done: number(), total: number() });
