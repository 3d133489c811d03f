// Writing a text with merge fields, as compose's content and the template editor do: the textarea with the
// buttons that insert a field at its caret, and the text shown with its fields as chips.
import { type ComponentProps, useRef } from 'react';
import { hasMergeFields, MergeFieldButtons, MergeFieldText } from '../../lib/merge-fields';
import { Textarea } from '../../ui/textarea';

/** The merge field buttons over the textarea they write into (both read-only together). */
export function MergeFieldArea({
  readOnly,
  onValueChange,
  ...props
}: Omit<ComponentProps<typeof Textarea>, 'ref' | 'readOnly' | 'onChange'> & {
  readOnly: boolean;
  onValueChange: (value: string) => void;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  return (
    <>
      <MergeFieldButtons target={area} disabled={readOnly} onChange={onValueChange} />
      <Textarea ref={area} readOnly={readOnly} {...props} onChange={(e) => onValueChange(e.currentTarget.value)} />
    </>
  );
}

/** The text with its merge fields as chips; nothing while it has none. */
export function MergePreview({ text }: { text: string }) {
  if (!hasMergeFields(text)) return null;
  return (
    <p data-slot="merge-preview" className="rounded-md bg-muted/50 p-2 text-sm break-words">
      <MergeFieldText text={text} />
    </p>
  );
}
