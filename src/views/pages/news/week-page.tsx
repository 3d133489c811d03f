// /mural/news/week?date=YYYY-MM-DD: the printable weekly wall for the school's entrance
// noticeboard and families without smartphones. On screen: the week, previous and next, Imprimir (an edge
// effect) and the way back; on paper (print: variants and @page A4 in index.css, no inline styles) one
// A4 page: the school (and its logo, when it has one) and the week in big type, the posts published that
// week (pinned first) with title, category, date, whom it is for, the first image small (from the API, like
// the wall's) and the text cut with "…", and a QR code to the wall with its address.
import { Link, useSearch } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import type { NewsPost } from '../../../../shared/news-contract';
import {
  excerpt,
  newsWeekMachine,
  selectNextWeekHref,
  selectPreviousWeekHref,
  selectWeek,
  selectWeekFailed,
  selectWeekFailure,
  selectWeekLoading,
  WEEK_PRINT_MAX,
} from '../../../machines/news/week';
import { newsFileHref } from '../../../services/news/wall';
import { SchoolLogo } from '../../layout/school-logo';
import { formatDay } from '../../lib/format';
import { useLocale, useLocaleZone, useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { cn } from '../../lib/utils';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { Page } from '../../ui/page';
import { QrCode } from './qr-code';
import { useSelectors } from '../../lib/selectors';

type WeekActor = ActorRefFrom<typeof newsWeekMachine>;

/** A YYYY-MM-DD day as the locale writes it (no zone: it is already the school's day). */
const dayOf = (date: string, locale: string) => formatDay(`${date}T12:00:00Z`, locale, 'UTC');

export function NewsWeekPage() {
  const search = useSearch();
  const date = new URLSearchParams(search).get('date');
  const actor = usePageActor(newsWeekMachine, { input: { date } });
  const t = useT();
  return (
    <Page width="w-full max-w-4xl min-w-0" data-slot="news-week" className="print:max-w-none print:gap-3">
      {actor ? <WeekScreen actor={actor} /> : <ListSkeleton label={t('newsAdmin.week.loading')} rows={3} />}
    </Page>
  );
}

function WeekScreen({ actor }: { actor: WeekActor }) {
  const t = useT();
  const locale = useLocale();
  const { week, loading, failed, failure, previous, next, canPrint } = useSelectors(actor, {
    week: selectWeek,
    loading: selectWeekLoading,
    failed: selectWeekFailed,
    failure: selectWeekFailure,
    previous: selectPreviousWeekHref,
    next: selectNextWeekHref,
    canPrint: (s) => s.can({ type: 'week.print' }),
  });
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden" data-slot="week-tools">
        <Link href="/mural/news" className="rounded-sm text-sm text-primary underline-offset-4 hover:underline">
          ← {t('newsAdmin.week.backToWall')}
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          {previous && (
            <Button asChild variant="outline" size="sm">
              <Link href={previous}>← {t('newsAdmin.week.previous')}</Link>
            </Button>
          )}
          {next && (
            <Button asChild variant="outline" size="sm">
              <Link href={next}>{t('newsAdmin.week.next')} →</Link>
            </Button>
          )}
          <Button type="button" disabled={!canPrint} aria-describedby="week-print-hint" onClick={() => actor.send({ type: 'week.print' })}>
            {t('newsAdmin.week.print')}
          </Button>
        </div>
        <p id="week-print-hint" className="w-full text-xs text-muted-foreground">
          {t('newsAdmin.week.printHint')}
        </p>
      </div>
      {loading && (
        <>
          <h1 id="page-title" className="text-2xl font-bold">
            {t('newsAdmin.week.heading')}
          </h1>
          <ListSkeleton label={t('newsAdmin.week.loading')} rows={3} />
        </>
      )}
      {failed && (
        <>
          <h1 id="page-title" className="text-2xl font-bold">
            {t('newsAdmin.week.heading')}
          </h1>
          <ListFailure
            message={failure ?? t('newsAdmin.week.loadFailed')}
            retryLabel={t('newsAdmin.week.retry')}
            onRetry={() => actor.send({ type: 'week.retry' })}
          />
        </>
      )}
      {week && !loading && (
        <article data-slot="week-sheet" className="flex min-w-0 flex-col gap-4 print:h-[270mm] print:gap-3 print:overflow-hidden">
          <header className="flex items-center justify-between gap-4 border-b pb-3 print:pb-2">
            <div className="flex min-w-0 flex-col gap-1">
              <p className="text-sm font-medium text-muted-foreground print:text-[12pt] print:text-black">{week.school}</p>
              <h1 id="page-title" className="text-3xl font-bold print:text-[28pt] print:leading-tight">
                {t('newsAdmin.week.heading')}
              </h1>
              <p className="text-lg print:text-[14pt]">
                {t('newsAdmin.week.range', { from: dayOf(week.from, locale), to: dayOf(week.to, locale) })}
              </p>
            </div>
            <SchoolLogo decorative className="h-16 max-w-32 print:h-[22mm]" />
          </header>
          {week.posts.length === 0 ? (
            <p
              role="status"
              data-slot="week-empty"
              className="rounded-lg border border-dashed bg-card p-6 text-center text-muted-foreground print:text-black"
            >
              {t('newsAdmin.week.empty')}
            </p>
          ) : (
            <ul data-slot="week-posts" className="grid min-w-0 grid-cols-1 gap-3 sm:grid-cols-2 print:grid-cols-2 print:gap-2">
              {week.posts.slice(0, WEEK_PRINT_MAX).map((post) => (
                <WeekPost key={post.id} post={post} />
              ))}
            </ul>
          )}
          {week.posts.length > WEEK_PRINT_MAX && (
            <p className="text-sm font-medium print:text-[10pt]">
              {t('newsAdmin.week.more', { count: week.posts.length - WEEK_PRINT_MAX })}
            </p>
          )}
          <footer data-slot="week-qr" className="mt-auto flex items-center gap-4 rounded-lg border p-3 print:break-inside-avoid">
            <QrCode
              text={week.wall_url}
              label={t('newsAdmin.week.qrLabel', { url: week.wall_url })}
              className="size-28 shrink-0 print:size-[32mm]"
            />
            <div className="flex min-w-0 flex-col gap-1">
              <p className="text-lg font-semibold print:text-[14pt]">{t('newsAdmin.week.readMore')}</p>
              <p className="text-sm break-all print:text-[11pt]">{week.wall_url}</p>
            </div>
          </footer>
        </article>
      )}
    </>
  );
}

function WeekPost({ post }: { post: NewsPost }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const image = post.attachments.find((attachment) => attachment.is_image);
  return (
    <li
      data-slot="week-post"
      className={cn(
        'flex min-w-0 gap-3 rounded-lg border bg-card p-3 print:break-inside-avoid print:gap-2 print:p-2',
        post.pinned && 'border-primary/60 print:border-black',
      )}
    >
      {image && (
        <img
          src={newsFileHref(image.url)}
          alt=""
          loading="eager"
          className="h-16 w-20 shrink-0 rounded object-cover print:h-[18mm] print:w-[24mm]"
        />
      )}
      <div className="flex min-w-0 flex-col gap-1">
        <h2 className="text-base leading-snug font-semibold break-words print:text-[12pt]">{post.title}</h2>
        <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground print:text-[9pt] print:text-black">
          {post.pinned && <Badge variant="secondary">{t('newsAdmin.week.pinned')}</Badge>}
          <span>{post.category?.name ?? t('newsAdmin.week.noCategory')}</span>
          <span aria-hidden="true">·</span>
          <time dateTime={post.publish_at}>{formatDay(post.publish_at, locale, timezone)}</time>
        </p>
        <p className="text-xs text-muted-foreground print:text-[9pt] print:text-black" data-slot="week-post-audience">
          {post.audience.scope === 'school'
            ? t('newsAdmin.week.forSchool')
            : t('newsAdmin.week.forGroups', { names: post.audience_names.join(', ') })}
        </p>
        <p className="line-clamp-4 text-sm break-words print:text-[10pt] print:leading-snug">{excerpt(post.body)}</p>
      </div>
    </li>
  );
}
