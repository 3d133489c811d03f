import type { DeviceStatus } from '../../../shared/compose-contract';
import { useT } from './i18n';
import { cn } from './utils';

const DOT: Record<DeviceStatus, string> = {
  blue: 'bg-blue-600',
  green: 'bg-green-600',
  yellow: 'bg-yellow-400 ring-1 ring-yellow-700/40',
  red: 'bg-red-600',
};
const STATUSES: readonly DeviceStatus[] = ['blue', 'green', 'yellow', 'red'];

/** The SPEC §3 colour of a guardian's device; the colour alone is not the information, so it has a name. */
export function DeviceDot({ status, className }: { status: DeviceStatus; className?: string }) {
  const t = useT();
  return (
    <span
      role="img"
      data-slot="device-dot"
      data-status={status}
      aria-label={t(`device.status.${status}`)}
      title={t(`device.status.${status}`)}
      className={cn('inline-block size-2.5 shrink-0 rounded-full', DOT[status], className)}
    />
  );
}

export function DeviceLegend() {
  const t = useT();
  return (
    <details data-slot="device-legend" className="text-xs text-muted-foreground">
      <summary className="cursor-pointer select-none">{t('device.legend.title')}</summary>
      <ul className="mt-1 flex flex-col gap-1">
        {STATUSES.map((status) => (
          <li key={status} className="flex items-center gap-2">
            <span aria-hidden className={cn('inline-block size-2.5 shrink-0 rounded-full', DOT[status])} />
            {t(`device.legend.${status}`)}
          </li>
        ))}
      </ul>
    </details>
  );
}
