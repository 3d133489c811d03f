// /settings/retention: how long the school keeps each kind of data, in months, and what the next daily
// sweep removes and when («El 01-12-2026 se eliminarán 1.240 mensajes anteriores al 01-12-2021»). The
// machine (retention/retention.ts) loads, saves, puts the server's Spanish errors on their fields and toasts.
import { useSelector } from '@xstate/react';
import { RETENTION_KINDS, type RetentionKind } from '../../../../shared/retention-contract';
import {
  retentionMachine,
  selectError,
  selectFailed,
  selectLoadFailed,
  selectLoading,
  selectNextDate,
  selectNothingNext,
  selectRemovedBefore,
  selectRemovedCount,
  selectSaving,
  selectValue,
  type RetentionActor,
} from '../../../machines/retention/retention';
import { formatDay } from '../../lib/format';
import { useLocaleZone, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { Card, CardContent } from '../../ui/card';
import { errorProps, FormField } from '../../ui/field';
import { MachineForm } from '../../ui/form';
import { Input } from '../../ui/input';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { SettingsShell } from '../settings/shell';

export function SettingsRetentionPage() {
  const actor = usePageActor(retentionMachine, { input: undefined });
  const t = useT();
  return (
    <SettingsShell>{actor ? <RetentionScreen actor={actor} /> : <ListSkeleton label={t('retention.loading')} rows={6} />}</SettingsShell>
  );
}

function RetentionScreen({ actor }: { actor: RetentionActor }) {
  const t = useT();
  const { loading, loadFailed } = useSelectors(actor, { loading: selectLoading, loadFailed: selectLoadFailed });
  if (loading) return <ListSkeleton label={t('retention.loading')} rows={6} />;
  if (loadFailed)
    return (
      <ListFailure
        message={t('retention.loadFailed')}
        retryLabel={t('retention.retry')}
        onRetry={() => actor.send({ type: 'retention.retry' })}
      />
    );
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardContent>
          <RetentionForm actor={actor} />
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <NextSweep actor={actor} />
        </CardContent>
      </Card>
    </div>
  );
}

function RetentionForm({ actor }: { actor: RetentionActor }) {
  const t = useT();
  const { saving, failed } = useSelectors(actor, { saving: selectSaving, failed: selectFailed });
  return (
    <MachineForm aria-busy={saving} className="flex flex-col gap-5" onSend={() => actor.send({ type: 'retention.save' })}>
      <p className="text-sm text-muted-foreground">{t('retention.intro')}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        {RETENTION_KINDS.map((kind) => (
          <MonthsField key={kind} actor={actor} kind={kind} />
        ))}
      </div>
      {failed && (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-sm text-destructive">
          {t('retention.failed')}
        </p>
      )}
      <div>
        {/* Never `disabled`: focus stays on it through the save. */}
        <Button type="submit" aria-disabled={saving || undefined} className="aria-disabled:opacity-50">
          {saving ? t('retention.saving') : t('retention.save')}
        </Button>
      </div>
    </MachineForm>
  );
}

// Selectors made once per kind, outside render: the same function on every render.
const by = <T,>(make: (kind: RetentionKind) => T) =>
  Object.fromEntries(RETENTION_KINDS.map((k) => [k, make(k)])) as Record<RetentionKind, T>;
const VALUE = by(selectValue);
const ERROR = by(selectError);
const COUNT = by(selectRemovedCount);
const BEFORE = by(selectRemovedBefore);

function MonthsField({ actor, kind }: { actor: RetentionActor; kind: RetentionKind }) {
  const t = useT();
  const value = useSelector(actor, VALUE[kind]);
  const error = useSelector(actor, ERROR[kind]);
  const id = `retention-${kind}`;
  return (
    <FormField label={`${t(`retention.kinds.${kind}`)} (${t('retention.months')})`} htmlFor={id} error={error} errorId={`${id}-error`}>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        min={12}
        max={120}
        value={value}
        {...errorProps(error, `${id}-error`)}
        onChange={(e) => actor.send({ type: 'retention.edit', kind, value: e.target.value })}
      />
    </FormField>
  );
}

function NextSweep({ actor }: { actor: RetentionActor }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const { date, nothing } = useSelectors(actor, { date: selectNextDate, nothing: selectNothingNext });
  const day = date ? formatDay(date, locale, timezone) : '';
  return (
    <section aria-labelledby="retention-next" className="flex flex-col gap-2" data-testid="retention-next">
      <h2 id="retention-next" className="text-base font-semibold">
        {t('retention.next')}
      </h2>
      {nothing ? (
        <p className="text-sm">{t('retention.nothing', { date: day })}</p>
      ) : (
        <ul className="flex list-disc flex-col gap-1 pl-5 text-sm">
          {RETENTION_KINDS.map((kind) => (
            <Removal key={kind} actor={actor} kind={kind} day={day} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Removal({ actor, kind, day }: { actor: RetentionActor; kind: RetentionKind; day: string }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const count = useSelector(actor, COUNT[kind]);
  const before = useSelector(actor, BEFORE[kind]);
  if (count === 0) return null;
  return <li>{t(`retention.removal.${kind}`, { count, date: day, before: formatDay(before, locale, timezone) })}</li>;
}
