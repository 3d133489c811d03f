// The templates screen's and the template picker's pure rules: what the editor accepts, whether compose's
// form already has text to replace, and the merge fields as text. (A template's SMS size is
// shared/template-size.ts, the server's too.)
import {
  MERGE_FIELDS,
  TEMPLATE_CONTENT_MAX,
  TEMPLATE_NAME_MAX,
  type MergeField,
  type Template,
  type TemplateInput,
} from '../../../shared/templates-contract';
import type { MessageKey } from '../../i18n';
import type { ApiFailure } from '../../services/http/client';

export type TemplateField = 'name' | 'content';
interface TemplateError {
  key: MessageKey;
  params?: Record<string, string | number>;
}
export type TemplateErrors = Partial<Record<TemplateField, TemplateError>>;

/** The editor's fields; `id` null for a new template. SPEC §3: a new template starts empty. */
export interface TemplateDraft {
  id: number | null;
  name: string;
  content: string;
}
export const EMPTY_DRAFT: TemplateDraft = { id: null, name: '', content: '' };

/**
 * Closing the editor would lose something (it asks «¿Descartar los cambios?» first): a new template with
 * a field that is not blank; an own template whose name, as a save would send it (trimmed), or content
 * differs from what the editor opened with.
 */
export const hasUnsavedTemplateChanges = (original: TemplateDraft, draft: TemplateDraft): boolean =>
  original.id === null
    ? draft.name.trim() !== '' || draft.content.trim() !== ''
    : draft.name.trim() !== original.name.trim() || draft.content !== original.content;

/**
 * A field's new value differs from the draft's. A field losing the focus may report the value it has
 * (Chrome fires `change` on blur after a merge-field button wrote into it): that answers nothing.
 */
export const changesTemplateField = (draft: TemplateDraft, change: { field: TemplateField; value: string }): boolean =>
  draft[change.field] !== change.value;

/** Where "Seguir editando" puts the focus back: the first field, in the editor's order, that holds the changes. */
export const firstChangedTemplateField = (original: TemplateDraft, draft: TemplateDraft): TemplateField =>
  draft.name.trim() !== original.name.trim() ? 'name' : 'content';

/** The ids the editor's controls carry (focus goes to the first invalid one). */
export const TEMPLATE_FIELD_IDS: Record<TemplateField, string> = { name: 'template-name', content: 'template-content' };
/** «¿Descartar los cambios?»'s safe answer, "Seguir editando", focused when the question opens. */
export const KEEP_EDITING_BUTTON_ID = 'template-keep-editing';
/** "Nueva plantilla", where focus returns when the editor of a new template closes. */
export const NEW_TEMPLATE_BUTTON_ID = 'template-new';
/** A row's buttons, where focus returns after its editor or its delete question closes. */
export const editButtonId = (id: number): string => `template-edit-${id}`;
export const deleteButtonId = (id: number): string => `template-delete-${id}`;

/** What the server's rules would refuse, checked first so a refused save costs no request. */
export function templateErrors(draft: TemplateDraft): TemplateErrors {
  const errors: TemplateErrors = {};
  const name = draft.name.trim();
  if (name === '') errors.name = { key: 'templates.errors.nameRequired' };
  else if (name.length > TEMPLATE_NAME_MAX) errors.name = { key: 'templates.errors.nameTooLong', params: { max: TEMPLATE_NAME_MAX } };
  if (draft.content.trim() === '') errors.content = { key: 'templates.errors.contentRequired' };
  else if (draft.content.length > TEMPLATE_CONTENT_MAX)
    errors.content = { key: 'templates.errors.contentTooLong', params: { max: TEMPLATE_CONTENT_MAX } };
  return errors;
}

export const hasTemplateErrors = (errors: TemplateErrors): boolean => Object.keys(errors).length > 0;

/** The first field to fix, in the editor's order. */
export const firstInvalidTemplateField = (errors: TemplateErrors): TemplateField | null =>
  errors.name ? 'name' : errors.content ? 'content' : null;

/** The body of POST / PATCH: the name trimmed, the content as written. */
export const templateInputOf = (draft: TemplateDraft): TemplateInput => ({ name: draft.name.trim(), content: draft.content });

/** A 422 with per-field messages (the server writes them in Spanish). */
export const isTemplateValidationFailure = (failure: ApiFailure): boolean =>
  failure.status === 422 && (failure.fieldErrors.name !== undefined || failure.fieldErrors.content !== undefined);

/** The server's field messages as the editor's errors. */
export function serverTemplateErrors(failure: ApiFailure): TemplateErrors {
  const errors: TemplateErrors = {};
  for (const field of ['name', 'content'] as const) {
    const message = failure.fieldErrors[field]?.[0];
    if (message) errors[field] = { key: 'templates.errors.server', params: { message } };
  }
  return errors;
}

/** Compose's form already has something typed: choosing a template asks before replacing it. */
export const formHasText = (form: { title: string; content: string }): boolean => form.title.trim() !== '' || form.content.trim() !== '';

/** What a chosen template puts in compose: its name as the title, its content as the content. */
export const templateApplyOf = (template: Pick<Template, 'name' | 'content'>) => ({ title: template.name, content: template.content });

/** `{estudiante}`: how a merge field is written in a template or a message. */
export const mergeToken = (field: MergeField): string => `{${field}}`;

export type TextPart = { kind: 'text'; text: string } | { kind: 'field'; field: MergeField };

const FIELD_PATTERN = new RegExp(`\\{(${MERGE_FIELDS.join('|')})\\}`, 'g');

/** A text cut into plain runs and merge fields, for showing the fields as chips. */
export function splitMergeFields(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(FIELD_PATTERN)) {
    if (match.index > last) parts.push({ kind: 'text', text: text.slice(last, match.index) });
    parts.push({ kind: 'field', field: match[1] as MergeField });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}
