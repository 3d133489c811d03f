// "Lista de llamados" on a course's page (the dashboard/call-list.ts child): how many last messages count (an event),
// the guardians not reached, the CSV download (a plain link to the server's CSV: the session cookie goes
// with it) and the print view. Loading, empty, failed (Reintentar) each say so.
import { Link } from 'wouter';
import {
  CALL_LIST_CHOICES,
  selectCsvUrl,
  selectList,
  selectListFailed,
  selectListLoading,
  selectMessages,
  type CallListActor,
} from '../../../../machines/dashboard/call-list';
import { useT } from '../../../lib/i18n';
import { buttonVariants } from '../../../ui/button';
import { ListFailure, ListSkeleton } from '../../../ui/list-state';
import { dataPhase, ListBody } from '../../../ui/list-page';
import { SelectField } from '../../../ui/native-select';
import { ScrollRegion } from '../../../ui/scroll-region';
import { CallListTable } from './call-list-table';
import { useSelectors } from '../../../lib/selectors';

export function CallListSection({ actor, courseId }: { actor: CallListActor; courseId: number }) {
  const t = useT();
  const { list, loading, failed, messages, csvUrl } = useSelectors(actor, {
    list: selectList,
    loading: selectListLoading,
    failed: selectListFailed,
    messages: selectMessages,
    csvUrl: selectCsvUrl,
  });
  return (
    <section
      aria-labelledby="call-list-title"
      data-slot="call-list"
      aria-busy={loading}
      className="flex min-w-0 flex-col gap-4 rounded-lg border bg-card p-4 md:p-6"
    >
      <header className="flex flex-col gap-1">
        <h3 id="call-list-title" className="text-lg font-semibold">
          {t('callList.title')}
        </h3>
        <p className="text-sm text-muted-foreground">{t('callList.intro')}</p>
      </header>
      <div className="flex flex-wrap items-end gap-3">
        <SelectField
          id="call-list-messages"
          label={t('callList.messages')}
          value={String(messages)}
          onChange={(e) => actor.send({ type: 'callList.messages', messages: Number(e.target.value) })}
        >
          {CALL_LIST_CHOICES.map((n) => (
            <option key={n} value={n}>
              {t('callList.option', { count: n })}
            </option>
          ))}
        </SelectField>
        <a href={csvUrl} download className={buttonVariants({ variant: 'outline' })} data-slot="call-list-csv">
          {t('callList.csv')}
        </a>
        <Link href={`/connectivity/course/${courseId}/call-list?messages=${messages}`} className={buttonVariants({ variant: 'outline' })}>
          {t('callList.print')}
        </Link>
      </div>
      <ListBody
        phase={list?.rows.length === 0 && !failed ? 'empty' : dataPhase(list, failed, true)}
        skeleton={<ListSkeleton label={t('callList.loading')} rows={3} rowClassName="h-10" />}
        failure={
          <ListFailure
            message={t('callList.loadFailed')}
            retryLabel={t('callList.retry')}
            onRetry={() => actor.send({ type: 'callList.retry' })}
          />
        }
        empty={
          <p className="text-sm text-muted-foreground" data-slot="call-list-empty">
            {t('callList.empty')}
          </p>
        }
      >
        {list && (
          <>
            <p className="text-sm font-medium" data-slot="call-list-count">
              {t('callList.count', { count: list.rows.length })}
            </p>
            <ScrollRegion label={t('callList.table')}>
              <CallListTable rows={list.rows} caption={t('callList.title')} />
            </ScrollRegion>
          </>
        )}
      </ListBody>
    </section>
  );
}
