import { templateSmsSize } from '../../../machines/template-rules';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';

/** "86 caracteres · 1 SMS": the content's size by the GSM-7 rule (shared/sms-text.ts). */
export function SmsSize({ content, className, id }: { content: string; className?: string; id?: string }) {
  const t = useT();
  const size = templateSmsSize(content);
  const unsupported = size.unsupported.length > 0;
  return (
    <p id={id} data-slot="sms-size" className={cn('text-xs tabular-nums text-muted-foreground', unsupported ? 'text-destructive' : size.segments > 1 && 'font-medium text-foreground', className)}>
      {unsupported
        ? t('templates.sms.unsupported', { chars: size.chars, unsupported: size.unsupported.join(' ') })
        : t('templates.sms.size', { chars: size.chars, count: size.segments })}
    </p>
  );
}
