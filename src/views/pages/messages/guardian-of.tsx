import type { GuardianOf } from '../../../../shared/messages-contract';
import { isFeminineRelationship } from '../../../../shared/message-rules';
import { cn } from '../../lib/utils';
import { useLocale, useT } from '../../lib/i18n';

/**
 * Whose guardian a sender is: "Apoderada de Óscar Núñez Núñez · 3° Básico A" (every enrolled child, with
 * the course), so two families with the same name are told apart. Nothing for staff and students.
 */
export function GuardianOfLine({ of, className }: { of: readonly GuardianOf[]; className?: string }) {
  const t = useT();
  const locale = useLocale();
  const first = of[0];
  if (!first) return null;
  const list = new Intl.ListFormat(locale, { type: 'conjunction' }).format(
    of.map((child) => t('messages.guardianOf.child', { student: child.student, course: child.course })),
  );
  const key = isFeminineRelationship(first.relationship) ? 'messages.guardianOf.female' : 'messages.guardianOf.male';
  return (
    <span data-slot="guardian-of" className={cn('text-xs text-muted-foreground', className)}>
      {t(key, { children: list })}
    </span>
  );
}
