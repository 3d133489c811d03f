// The roster import's calls (shared/roster-contract.ts `ROSTER_API`) as actor logic: the file sent with its
// upload progress (and the columns as the administrator assigned them), the import history, the preview's
// people page by page, the conflicts among them, apply and discard. Every answer is checked with its struct
// (shared/roster-structs.ts).
import {
  ROSTER_API,
  type ApplyInput,
  type ChangeKind,
  type ColumnMapping,
  type PreviewPerson,
  type RosterImport,
  type RosterFileType,
  type RosterReadAnswer,
} from '../../../shared/roster-contract';
import {
  PreviewPeoplePageStruct,
  RosterImportBodyStruct,
  RosterImportPageStruct,
  RosterReadAnswerStruct,
} from '../../../shared/roster-structs';
import { API_BASE, fromCall, parseBody, type HttpClient } from '../http/client';
import { uploadForm, type UploadProgress } from '../http/upload';
import { fromNumberedPage, pageNumberOf, type ListFetchInput, type ListPage } from '../list/pages';

export interface RosterUploadInput {
  file: File;
  /** The columns as the administrator assigned them; absent on the first try. */
  mapping: ColumnMapping | null;
  onProgress?: UploadProgress;
}

/** Failure codes of the upload when the body says nothing (a proxy answering a bare 413). */
const UPLOAD_STATUS_CODES: Readonly<Record<number, string>> = { 413: 'roster.too_large', 422: 'validation.failed' };

export const uploadRoster = fromCall<RosterReadAnswer, RosterUploadInput>(({ input, signal, http }) => {
  const form = () => {
    const body = new FormData();
    body.append('file', input.file, input.file.name);
    if (input.mapping) body.append('mapping', JSON.stringify(input.mapping));
    return body;
  };
  const upload = {
    path: ROSTER_API.imports,
    form,
    size: input.file.size,
    struct: RosterReadAnswerStruct,
    statusCodes: UPLOAD_STATUS_CODES,
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
  };
  return uploadForm(http, upload, signal);
});

/** How many past imports step 1 shows (the newest). */
const HISTORY_SHOWN = 10;

/** The newest imports, for step 1. */
export const fetchRosterHistory = fromCall<RosterImport[], void>(async ({ signal, http }) => {
  const body = await http.request(ROSTER_API.imports, { query: { page: 1 }, signal });
  return parseBody(body, RosterImportPageStruct, ROSTER_API.imports).data.slice(0, HISTORY_SHOWN);
});

/** The preview's people: one import's, of one kind of change (null: every kind). */
export interface PeopleQuery {
  importId: number;
  change: ChangeKind | null;
}

async function peoplePage(http: HttpClient, query: PeopleQuery, page: number, signal: AbortSignal) {
  const path = ROSTER_API.people(query.importId);
  const body = await http.request(path, { query: { page, ...(query.change ? { change: query.change } : {}) }, signal });
  return parseBody(body, PreviewPeoplePageStruct, path);
}

export const fetchPeoplePage = fromCall<ListPage<PreviewPerson>, ListFetchInput<PeopleQuery>>(async ({ input, signal, http }) =>
  fromNumberedPage(await peoplePage(http, input.query, pageNumberOf(input.after), signal)),
);

/** A field the file would change over an administrator's correction: the choice is asked for by `key`. */
export interface RosterConflict {
  /** `person kind:id:field`, as `ApplyInput.conflicts` names it. */
  key: string;
  name: string;
  field: string;
  hermes: string | null;
  file: string | null;
}

const conflictKey = (person: PreviewPerson, field: string): string => `${person.kind}:${person.id ?? 0}:${field}`;

/** The conflicts of a person: their hand-corrected fields the file would change. */
const conflictsOf = (person: PreviewPerson): RosterConflict[] =>
  person.changes
    .filter((change) => change.manual)
    .map((change) => ({
      key: conflictKey(person, change.field),
      name: person.name,
      field: change.field,
      hermes: change.from,
      file: change.to,
    }));

/** Where conflicts are: the changed people, and the withdrawn ones (a student enrolled again by hand whom the file leaves out). */
const CONFLICT_CHANGES: readonly ChangeKind[] = ['changed', 'withdrawn'];

/**
 * Every conflict of an import: the pages of the people who can have one are read until `expected` conflicts
 * are found or the pages end (a yearly file changes many students, few of them by hand).
 */
export const fetchRosterConflicts = fromCall<RosterConflict[], { importId: number; expected: number }>(async ({ input, signal, http }) => {
  const found: RosterConflict[] = [];
  for (const change of CONFLICT_CHANGES) {
    for (let page = 1; found.length < input.expected; page += 1) {
      const answer = await peoplePage(http, { importId: input.importId, change }, page, signal);
      found.push(...answer.data.flatMap(conflictsOf));
      if (answer.meta.current_page >= answer.meta.last_page) break;
    }
  }
  return found;
});

export const applyRoster = fromCall<RosterImport, { importId: number; conflicts: Record<string, 'keep' | 'file'> }>(
  async ({ input, signal, http }) => {
    const path = ROSTER_API.apply(input.importId);
    const sent: ApplyInput = { conflicts: input.conflicts };
    return parseBody(await http.request(path, { method: 'POST', body: { ...sent }, signal }), RosterImportBodyStruct, path).data;
  },
);

export const discardRoster = fromCall<void, { importId: number }>(async ({ input, signal, http }) => {
  await http.request(ROSTER_API.import(input.importId), { method: 'DELETE', signal });
});

/** The refused lines of an import as a CSV (a plain link: the browser downloads it with the session's cookies). */
export const problemsHref = (importId: number): string => `${API_BASE}${ROSTER_API.problems(importId)}`;

/** Every import of the school as a CSV, newest first (a plain link, as the refused lines). */
export const historyHref = (): string => `${API_BASE}${ROSTER_API.history}`;

/** The documented columns with an example row, for a school of `country`. */
export const templateHref = (type: RosterFileType, country: 'CL' | 'MX'): string =>
  `${API_BASE}${ROSTER_API.template(type)}?country=${country}`;
