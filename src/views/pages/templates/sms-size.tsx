import { templateSmsSize } from '../../../../shared/template-size';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';

/** "86 caracteres · 1 SMS": the content's size by the GSM-7 rule (shared/template-size.ts), without signature. */
export function SmsSize({ content, className, id }: { content: string; className?: string; id?: string }) {
  const t = useT();
  const size = templateSmsSize(content, null);
  const unsupported = size.unsupported.length > 0;
  return (
    <p
      id={id}
      data-slot="sms-size"
      className={cn(
        'text-xs tabular-nums text-muted-foreground',
        unsupported ? 'text-destructive' : size.segments > 1 && 'font-medium text-foreground',
        className,
      )}
    >
      {unsupported
        ? t('templates.sms.unsupported', { chars: size.units, unsupported: size.unsupported.join(' ') })
        : t('templates.sms.size', { chars: size.units, count: size.segments })}
    </p>
  );
}
