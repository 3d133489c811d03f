import { useSelector } from '@xstate/react';
import { selectSignature } from '../../../machines/compose/selectors';
import { useT } from '../../lib/i18n';
import type { ComposeActor } from './field';

/** The institution's signature, as it will close the message (only while it is active). */
export function SignaturePreview({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const signature = useSelector(compose, selectSignature);
  if (signature === null) return null;
  return (
    <div data-slot="signature-preview" className="rounded-md border border-dashed px-3 py-2 text-sm">
      <span className="font-medium">{t('compose.signature.label')}: </span>
      <span className="text-muted-foreground">{t('compose.signature.preview', { signature })}</span>
    </div>
  );
}
