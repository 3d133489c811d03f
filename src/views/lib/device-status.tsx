import { useId } from 'react';
import { DEVICE_STATUSES, type DeviceStatus } from '../../../shared/compose-contract';
import { useT } from './i18n';
import { cn } from './utils';

const DOT: Record<DeviceStatus, string> = {
  blue: 'bg-blue-600',
  green: 'bg-green-600',
  yellow: 'bg-yellow-400 ring-1 ring-yellow-700/40',
  red: 'bg-red-600',
};
export { DEVICE_STATUSES };
const STATUSES = DEVICE_STATUSES;
/** The same colours as SVG fills (the connectivity dashboard's device mix). */
export const DEVICE_FILL: Record<DeviceStatus, string> = {
  blue: 'fill-blue-600',
  green: 'fill-green-600',
  yellow: 'fill-yellow-400',
  red: 'fill-red-600',
};

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

/** What the colours mean, shown beside them (never folded away: a colour nobody can decode says nothing). */
export function DeviceLegend({ className }: { className?: string }) {
  const t = useT();
  const titleId = useId();
  return (
    <div
      data-slot="device-legend"
      role="group"
      aria-labelledby={titleId}
      className={cn('flex flex-col gap-1 text-xs text-muted-foreground', className)}
    >
      <p id={titleId} className="font-medium text-foreground">
        {t('device.legend.title')}
      </p>
      <ul className="flex flex-wrap gap-x-4 gap-y-1">
        {STATUSES.map((status) => (
          <li key={status} className="flex items-center gap-1.5">
            <span aria-hidden className={cn('inline-block size-2.5 shrink-0 rounded-full', DOT[status])} />
            {t(`device.legend.${status}`)}
          </li>
        ))}
      </ul>
    </div>
  );
}
