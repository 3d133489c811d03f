// /connectivity/course/:id/call-list?messages=N: "Lista de llamados" as a printable page. On
// screen: the school's logo (when it has one) and the heading, Imprimir and the way back; on paper (print: variants, no inline styles) only the list,
// cut into pages of CALL_LIST_PAGE_ROWS rows, each with the course, N, when it was generated and its number.
import { Link, useSearch } from 'wouter';
import {
  callListMachine,
  selectList,
  selectListFailed,
  selectListNotFound,
  selectPrintPages,
  type CallListActor,
} from '../../../machines/dashboard/call-list';
import { SchoolLogo } from '../../layout/school-logo';
import { formatDateTime } from '../../lib/format';
import { useLocaleZone, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { cn } from '../../lib/utils';
import { Button } from '../../ui/button';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { Page } from '../../ui/page';
import { ScrollRegion } from '../../ui/scroll-region';
import { CallListTable } from './connectivity/call-list-table';
import { useSelectors } from '../../lib/selectors';

export function CallListPrintPage({ id }: { id: number }) {
  const search = useSearch();
  const asked = Number(new URLSearchParams(search).get('messages'));
  const actor = usePageActor(callListMachine, { input: { courseId: id, messages: asked } });
  const t = useT();
  return (
    <Page width="w-full max-w-5xl min-w-0" aria-labelledby="call-list-print-title" data-slot="call-list-print" className="print:max-w-none">
      <div className="flex flex-wrap items-center gap-3">
        <SchoolLogo />
        <h1 id="call-list-print-title" className="text-2xl font-bold print:text-base">
          {t('callList.title')}
        </h1>
      </div>
      <div className="flex flex-wrap items-center gap-3 print:hidden">
        <Link href={`/connectivity/course/${id}`} className="rounded-sm text-sm text-primary underline-offset-4 hover:underline">
          ← {t('callList.back')}
        </Link>
        <Button type="button" onClick={() => window.print()}>
          {t('callList.printNow')}
        </Button>
      </div>
      {actor ? <PrintBody actor={actor} /> : <ListSkeleton label={t('callList.loading')} rows={3} rowClassName="h-10" />}
    </Page>
  );
}

function PrintBody({ actor }: { actor: CallListActor }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const { list, failed, notFound, pages } = useSelectors(actor, {
    list: selectList,
    failed: selectListFailed,
    notFound: selectListNotFound,
    pages: selectPrintPages,
  });
  if (notFound) {
    return (
      <div role="alert" data-slot="course-not-found" className="flex flex-col gap-2 rounded-lg border bg-card p-6">
        <h2 className="text-xl font-semibold">{t('course.notFound')}</h2>
        <p>{t('course.notFoundBody')}</p>
      </div>
    );
  }
  if (failed)
    return (
      <ListFailure
        message={t('callList.loadFailed')}
        retryLabel={t('callList.retry')}
        onRetry={() => actor.send({ type: 'callList.retry' })}
      />
    );
  if (!list) return <ListSkeleton label={t('callList.loading')} rows={3} rowClassName="h-10" />;
  const subtitle = t('callList.generated', {
    course: list.course.name,
    count: list.messages,
    date: formatDateTime(list.generated_at, locale, timezone),
  });
  if (pages.length === 0) {
    return (
      <>
        <p className="text-sm">{subtitle}</p>
        <p className="text-sm text-muted-foreground">{t('callList.empty')}</p>
      </>
    );
  }
  return (
    <>
      {pages.map((rows, i) => (
        <article
          // biome-ignore lint/suspicious/noArrayIndexKey: a printed page is its position: page i whatever rows it holds.
          key={i}
          data-slot="call-list-page"
          className={cn('flex min-w-0 flex-col gap-2', i < pages.length - 1 && 'print:break-after-page')}
        >
          <header className={cn('flex flex-wrap items-baseline justify-between gap-2', i > 0 && 'hidden print:flex')}>
            {/* The heading above is the first page's; the others repeat the title on paper. */}
            {i > 0 ? <p className="font-bold">{t('callList.title')}</p> : null}
            <p className="text-sm print:text-[9pt]">{subtitle}</p>
            <p className="hidden text-[9pt] print:block">{t('callList.page', { page: i + 1, pages: pages.length })}</p>
          </header>
          {i === 0 ? <p className="text-sm font-medium">{t('callList.count', { count: list.rows.length })}</p> : null}
          <ScrollRegion
            label={`${t('callList.table')} · ${t('callList.page', { page: i + 1, pages: pages.length })}`}
            className="print:overflow-visible"
          >
            <CallListTable rows={rows} caption={`${t('callList.title')} · ${t('callList.page', { page: i + 1, pages: pages.length })}`} />
          </ScrollRegion>
        </article>
      ))}
    </>
  );
}
