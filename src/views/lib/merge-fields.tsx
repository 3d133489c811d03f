// Merge fields ({estudiante}, {curso}, {apoderado}) in the template editor and compose's content: buttons
// that insert one at the caret, and a text shown with its fields as chips. Shared by /templates and compose.
import type { RefObject } from 'react';
import { MERGE_FIELDS, type MergeField } from '../../../shared/templates-contract';
import { mergeToken, splitMergeFields } from '../../machines/templates/rules';
import type { MessageKey } from '../../i18n';
import { useT, type Translate } from './i18n';
import { cn } from './utils';

const LABEL: Record<MergeField, MessageKey> = {
  estudiante: 'templates.mergeFields.estudiante',
  curso: 'templates.mergeFields.curso',
  apoderado: 'terms.guardian',
};

/** "Estudiante", "Curso", "Apoderado" (es-MX: "Alumno", "Grupo", "Padre o tutor"). */
const mergeFieldLabel = (t: Translate, field: MergeField): string => t(LABEL[field]);

/**
 * One button per field; a click writes `{campo}` where the caret is (replacing a selection), as typing
 * would, hands the new text on and puts the caret after it.
 */
export function MergeFieldButtons({
  target,
  onChange,
  disabled = false,
  className,
}: {
  target: RefObject<HTMLTextAreaElement | null>;
  onChange: (value: string) => void;
  disabled?: boolean;
  className?: string;
}) {
  const t = useT();
  const insert = (field: MergeField) => {
    const area = target.current;
    if (!area || area.readOnly) return;
    area.setRangeText(mergeToken(field), area.selectionStart, area.selectionEnd, 'end');
    onChange(area.value);
    area.focus();
  };
  return (
    <div
      role="group"
      aria-label={t('templates.mergeFields.label')}
      data-slot="merge-field-buttons"
      className={cn('flex flex-wrap items-center gap-1.5', className)}
    >
      <span aria-hidden className="text-xs text-muted-foreground">
        {t('templates.mergeFields.label')}:
      </span>
      {MERGE_FIELDS.map((field) => (
        <button
          key={field}
          type="button"
          disabled={disabled}
          data-field={field}
          aria-label={t('templates.mergeFields.insert', { field: mergeFieldLabel(t, field) })}
          className="inline-flex h-7 items-center gap-1 rounded-full border border-primary/30 bg-primary/5 px-2.5 text-xs font-medium text-primary outline-none hover:bg-primary/10 focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
          // Keep the caret in the textarea: a mouse press would otherwise move focus (and the selection) first.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => insert(field)}
        >
          <span aria-hidden>+</span> {mergeFieldLabel(t, field)}
        </button>
      ))}
    </div>
  );
}

/** A merge field as a chip, named in the locale ("Estudiante"), with the field as written for assistive tech. */
function MergeFieldChip({ field }: { field: MergeField }) {
  const t = useT();
  return (
    <span
      data-slot="merge-field"
      data-field={field}
      title={mergeToken(field)}
      className="mx-0.5 inline-flex items-center rounded-full bg-primary/10 px-1.5 text-[0.85em] font-medium whitespace-nowrap text-primary"
    >
      {mergeFieldLabel(t, field)}
    </span>
  );
}

/** A text with its merge fields shown as chips (line breaks kept). */
export function MergeFieldText({ text, className }: { text: string; className?: string }) {
  return (
    <span data-slot="merge-field-text" className={cn('whitespace-pre-line', className)}>
      {splitMergeFields(text).map((part, i) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a text cut anew at each render: a part has no identity but its position.
        part.kind === 'field' ? <MergeFieldChip key={i} field={part.field} /> : <span key={i}>{part.text}</span>,
      )}
    </span>
  );
}

/** Whether the text has any merge field (compose shows its chips preview only then). */
export const hasMergeFields = (text: string): boolean => splitMergeFields(text).some((part) => part.kind === 'field');
