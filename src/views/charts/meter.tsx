// A meter (used of a total) drawn as SVG, styled by classes: role="meter" with its figures, so a screen
// reader says "Usado este mes, 4.210 de 5.000". An optional reserved share is shown at the end of the track.
import { cn } from '../lib/utils';
import { shareOf } from './scale';

export interface MeterProps {
  label: string;
  value: number;
  max: number;
  /** What a screen reader says for the value ("4.210 de 5.000 SMS"). */
  valueText: string;
  /** Part of `max` kept apart (the emergency reserve), drawn at the end of the track. */
  reserved?: number;
  /** The value is in the alert zone (drawn in the destructive colour). */
  low?: boolean;
  className?: string;
}

export function Meter({ label, value, max, valueText, reserved = 0, low = false, className }: MeterProps) {
  const used = Math.round(shareOf(value, max) * 1000) / 10;
  const kept = Math.round(shareOf(reserved, max) * 1000) / 10;
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      aria-valuetext={valueText}
      data-slot="meter"
      className={cn('w-full', className)}
    >
      <svg viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true" className="h-3 w-full">
        <rect width={100} height={6} rx={3} className="fill-muted" />
        {kept > 0 ? <rect x={100 - kept} width={kept} height={6} className="fill-warning/40" data-slot="meter-reserved" /> : null}
        <rect width={used} height={6} rx={3} className={low ? 'fill-destructive' : 'fill-primary'} data-slot="meter-used" />
      </svg>
    </div>
  );
}
