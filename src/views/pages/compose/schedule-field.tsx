import type { ComponentProps } from 'react';
import { FIELD_IDS } from '../../../machines/compose/rules';
import {
  selectHasSchedule,
  selectIsLocked,
  selectScheduleDate,
  selectScheduleTime,
  selectTimezone,
} from '../../../machines/compose/selectors';
import { formatZoneName } from '../../lib/format';
import { useLocale, useT } from '../../lib/i18n';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { describedBy, FieldDescription, FieldError } from '../../ui/field';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { useFieldError, type ComposeActor } from './field';

/** Date and time on the institution's clock (its zone is named under the fields). */
export function ScheduleField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { date, time, hasSchedule, timezone, locked } = useSelectors(compose, {
    date: selectScheduleDate,
    time: selectScheduleTime,
    hasSchedule: selectHasSchedule,
    timezone: selectTimezone,
    locked: selectIsLocked,
  });
  const locale = useLocale();
  const error = useFieldError(compose, 'schedule');
  const described = describedBy('compose-schedule-zone', error.text && error.id);
  // The date and the time alike: read-only while locked, invalid and described by the error together.
  const both = { readOnly: locked, 'aria-invalid': error.text ? true : undefined, 'aria-describedby': described };

  const change = (nextDate: string, nextTime: string) => compose.send({ type: 'compose.setSchedule', date: nextDate, time: nextTime });

  return (
    <fieldset aria-describedby={described} className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">{t('compose.schedule.label')}</legend>
      <FieldDescription>{t('compose.schedule.hint')}</FieldDescription>
      <div className="flex flex-wrap items-end gap-3">
        <ScheduleInput
          id={FIELD_IDS.schedule}
          label={t('compose.schedule.date')}
          type="date"
          className="w-44"
          value={date}
          {...both}
          onChange={(e) => change(e.currentTarget.value, time)}
        />
        <ScheduleInput
          id="compose-schedule-time"
          label={t('compose.schedule.time')}
          type="time"
          className="w-32"
          value={time}
          {...both}
          onChange={(e) => change(date, e.currentTarget.value)}
        />
        {hasSchedule && (
          <Button type="button" variant="ghost" size="sm" disabled={locked} onClick={() => compose.send({ type: 'compose.clearSchedule' })}>
            {t('compose.schedule.clear')}
          </Button>
        )}
      </div>
      <p id="compose-schedule-zone" className="text-xs text-muted-foreground">
        {t('compose.schedule.timezone', { name: formatZoneName(locale, timezone), timezone })}
      </p>
      <FieldError id={error.id}>{error.text}</FieldError>
    </fieldset>
  );
}

/** The date's or the time's input under its label. */
function ScheduleInput({ id, label, ...props }: Omit<ComponentProps<typeof Input>, 'id'> & { id: string; label: string }) {
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} {...props} />
    </div>
  );
}
