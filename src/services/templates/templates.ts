// Template calls (shared/templates-contract.ts `TEMPLATES_API`) as actor logic. Every body is checked
// before a machine sees it.
import { array, boolean, enums, number, string, type, type Describe } from 'superstruct';
import { fromCall, parseBody, saveOne, type HttpClient } from '../http/client';
import type { ListFetchInput, ListPage } from '../list/pages';
import {
  TEMPLATE_REPOSITORIES,
  TEMPLATES_API,
  type Template,
  type TemplateInput,
  type TemplateRepositoryCode,
} from '../../../shared/templates-contract';

const TemplateStruct: Describe<Template> = type({
  id: number(),
  name: string(),
  content: string(),
  repository: type({ code: enums(TEMPLATE_REPOSITORIES), name: string() }),
  editable: boolean(),
  updated_at: string(),
});
const TemplatesBodyStruct = type({ data: array(TemplateStruct) });
const TemplateBodyStruct = type({ data: TemplateStruct });

/** A template list's query: one repository (absent: all three) and the search text as typed. */
export interface TemplateQuery {
  repository: TemplateRepositoryCode | null;
  q: string;
}

/** `GET /templates?repository=&q=`: the whole list (the contract does not page it). */
async function templates(http: HttpClient, query: TemplateQuery, signal: AbortSignal): Promise<Template[]> {
  const params = { repository: query.repository ?? undefined, q: query.q.trim() === '' ? undefined : query.q.trim() };
  const body = await http.request(TEMPLATES_API.templates, { query: params, signal });
  return parseBody(body, TemplatesBodyStruct, TEMPLATES_API.templates).data;
}

/** The list pattern's `fetchPage` (machines/list/list.ts): one page holding every template of the query. */
export const fetchTemplateListPage = fromCall<ListPage<Template>, ListFetchInput<TemplateQuery>>(async ({ input, signal, http }) => {
  const items = await templates(http, input.query, signal);
  return { items, total: items.length, next: null };
});

/** One template the user can see, by id ("Usar en mensaje nuevo" opens `/new?template=ID`); null when none. */
export const fetchTemplate = fromCall<Template | null, { id: number }>(async ({ input, signal, http }) => {
  const all = await templates(http, { repository: null, q: '' }, signal);
  return all.find((template) => template.id === input.id) ?? null;
});

export interface SaveTemplateInput {
  /** null: a new template (POST); else the own template to update (PATCH). */
  id: number | null;
  template: TemplateInput;
}

export const saveTemplate = fromCall<Template, SaveTemplateInput>(({ input, signal, http }) =>
  saveOne(
    http,
    { id: input.id, collection: TEMPLATES_API.templates, one: TEMPLATES_API.template },
    input.template,
    TemplateBodyStruct,
    signal,
  ),
);

export const deleteTemplate = fromCall<void, { id: number }>(async ({ input, signal, http }) => {
  await http.request(TEMPLATES_API.template(input.id), { method: 'DELETE', signal });
});

/** A copy of any template the user can see, in "Mis plantillas". */
export const copyTemplate = fromCall<Template, { id: number }>(async ({ input, signal, http }) => {
  const path = TEMPLATES_API.copy(input.id);
  return parseBody(await http.request(path, { method: 'POST', signal }), TemplateBodyStruct, path).data;
});
