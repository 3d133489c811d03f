import type { ArrivedBy } from '../../../../shared/messages-contract';
import { useT } from '../../lib/i18n';

/**
 * Under the sender of a family's SMS or WhatsApp: the channel and number it came from, and, for a number of no
 * family of the school, that it cannot be answered here (server/inbound/, decision 0240). Nothing otherwise.
 */
export function ArrivedByLine({ arrived }: { arrived: ArrivedBy | null }) {
  const t = useT();
  if (!arrived) return null;
  return (
    <>
      <span data-slot="arrived-by" className="text-xs text-muted-foreground">
        {t(`messages.arrivedBy.${arrived.channel}`, { phone: arrived.phone })}
      </span>
      {!arrived.known && (
        <span data-slot="unknown-number" className="text-xs text-muted-foreground">
          {t('messages.arrivedBy.unknown')}
        </span>
      )}
    </>
  );
}
