import type { ChannelCode } from '../../../../shared/codes';
import { useT } from '../../lib/i18n';
import { cn } from '../../lib/utils';

/** The channels a message went by, as small badges ("SMS", "Correo"); `tiny` in a folder's dense rows. */
export function ChannelBadges({ channels, tiny = false }: { channels: readonly ChannelCode[]; tiny?: boolean }) {
  const t = useT();
  return channels.map((c) => (
    <span
      key={c}
      className={cn('rounded bg-secondary px-1.5 py-0.5', tiny ? 'text-[10px] font-medium' : 'text-xs', 'text-secondary-foreground')}
    >
      {t(`messages.channel.${c}`)}
    </span>
  ));
}
