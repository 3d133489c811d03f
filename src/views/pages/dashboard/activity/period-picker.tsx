// The period of a data screen: Mes / Año escolar and the arrows to the one before or after,
// offered only where the machine allows it (never the future). Its name is announced when it changes;
// on a 390 px phone the controls wrap rather than scroll sideways.
import type { PeriodKind } from '../../../../../shared/dashboard-contract';
import { useT } from '../../../lib/i18n';
import { NativeSelect } from '../../../ui/native-select';
import { StepButton } from '../../../ui/step-button';
import { periodName } from './format';

export interface PeriodPickerProps {
  id: string;
  kind: PeriodKind;
  /** The period shown; null before the server has said which is its default. */
  periodKey: string | null;
  canPrevious: boolean;
  canNext: boolean;
  locale: string;
  onKind: (kind: PeriodKind) => void;
  onShift: (step: -1 | 1) => void;
}

export function PeriodPicker({ id, kind, periodKey, canPrevious, canNext, locale, onKind, onShift }: PeriodPickerProps) {
  const t = useT();
  const month = kind === 'month';
  return (
    <div role="group" aria-label={t('activity.period.label')} className="flex flex-wrap items-center gap-2" data-slot="period-picker">
      <NativeSelect
        id={id}
        aria-label={t('activity.period.kind')}
        value={kind}
        onChange={(event) => onKind(event.target.value as PeriodKind)}
      >
        <option value="month">{t('activity.period.month')}</option>
        <option value="school-year">{t('activity.period.schoolYear')}</option>
      </NativeSelect>
      <div className="inline-flex items-center gap-1">
        <StepButton
          direction="previous"
          label={t(month ? 'activity.period.previousMonth' : 'activity.period.previousYear')}
          disabled={!canPrevious}
          onClick={() => onShift(-1)}
        />
        <span aria-live="polite" className="min-w-32 px-1 text-center text-sm font-medium" data-slot="period-name">
          {periodKey === null ? '…' : periodName(t, kind, periodKey, locale)}
        </span>
        <StepButton
          direction="next"
          label={t(month ? 'activity.period.nextMonth' : 'activity.period.nextYear')}
          disabled={!canNext}
          onClick={() => onShift(1)}
        />
      </div>
    </div>
  );
}
