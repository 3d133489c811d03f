// API contract for message templates (SPEC §3 "Template"), shared by the SPA and `server/`.
// Plain types and constants only.

/**
 * Where a template comes from (SPEC §3 repository.code): the user's own, the product's (shown under the
 * product's name, PRODUCT_REPOSITORY.name) and the socio-emotional library. Only `mis-plantillas` can be
 * edited or deleted; the others are read-only and can be copied to `mis-plantillas`.
 */
export const TEMPLATE_REPOSITORIES = ['mis-plantillas', 'hermes', 'socioemocional'] as const;
export type TemplateRepositoryCode = (typeof TEMPLATE_REPOSITORIES)[number];

/** The product's repository: SPEC's `{product}`. */
export const PRODUCT_REPOSITORY = { code: 'hermes', name: 'Hermes' } as const satisfies { code: TemplateRepositoryCode; name: string };

/** Merge fields a template (and so a message) may carry, filled per recipient at delivery. */
export const MERGE_FIELDS = ['estudiante', 'curso', 'apoderado'] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];

export const TEMPLATE_NAME_MAX = 120;
export const TEMPLATE_CONTENT_MAX = 5000;

/**
 * `GET /templates?repository=&q=` → `{ data: Template[] }` (SPEC §7 "data.data"), newest first
 * within the user's own, by name within the libraries. `q` matches name and content, ignoring case and
 * accents; `repository` filters by code (absent: all three).
 */
export interface Template {
  id: number;
  name: string;
  content: string;
  repository: { code: TemplateRepositoryCode; name: string };
  /** The user may edit and delete it (own templates only). */
  editable: boolean;
  updated_at: string;
}

/** Body of `POST /templates` and `PATCH /templates/{id}` (PATCH: either field). */
export interface TemplateInput {
  name: string;
  content: string;
}

/**
 * - POST   /templates              TemplateInput → 201 { data: Template }
 * - PATCH  /templates/{id}         Partial<TemplateInput> → 200 { data: Template }   (own only; others 404)
 * - DELETE /templates/{id}         → 204                                            (own only; others 404)
 * - POST   /templates/{id}/copy    → 201 { data: Template } a copy in mis-plantillas (any template the user can see)
 * Errors: 422 `validation.failed` with `errors.name` / `errors.content`; 404 for a template the user cannot see.
 */
export const TEMPLATES_API = {
  templates: '/templates',
  template: (id: number) => `/templates/${id}`,
  copy: (id: number) => `/templates/${id}/copy`,
} as const;
