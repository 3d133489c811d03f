// The connectivity table: one table per level with its courses, each course a link to its page,
// the courses cut off (effective coverage under CUT_OFF_SHARE) marked by a badge and a tinted row (never
// the colour alone), and two choices that are events: which level, and the order (by coverage).
import { Link } from 'wouter';
import {
  CONNECTIVITY_SORTS,
  CUT_OFF_SHARE,
  isCutOff,
  selectData,
  selectLevel,
  selectShownLevels,
  selectSort,
  type ConnectivityActor,
  type ConnectivitySort,
} from '../../../../machines/dashboard/connectivity';
import type { ConnectivityRow } from '../../../../../shared/dashboard-contract';
import { formatNumber } from '../../../charts/scale';
import { DEVICE_STATUSES, DeviceDot } from '../../../lib/device-status';
import { useT } from '../../../lib/i18n';
import { cn } from '../../../lib/utils';
import { Badge } from '../../../ui/badge';
import { ColumnHeader, NumberCell } from '../../../ui/data-table';
import { SelectField } from '../../../ui/native-select';
import { SortableHeader } from '../../../ui/sortable-header';
import { ScrollRegion } from '../../../ui/scroll-region';
import { formatPercent } from './figures';
import type { MessageKey } from '../../../../i18n';
import { useSelectors } from '../../../lib/selectors';

const SORT_LABEL: Record<ConnectivitySort, MessageKey> = {
  school: 'connectivity.table.sortSchool',
  coverageAsc: 'connectivity.table.sortCoverageAsc',
  coverageDesc: 'connectivity.table.sortCoverageDesc',
};

export function CoursesTable({ actor, locale }: { actor: ConnectivityActor; locale: string }) {
  const t = useT();
  const { data, sort, level, levels } = useSelectors(actor, {
    data: selectData,
    sort: selectSort,
    level: selectLevel,
    levels: selectShownLevels,
  });
  if (!data || !levels) return null;
  return (
    <section aria-labelledby="connectivity-table-title" className="flex min-w-0 flex-col gap-4">
      <h2 id="connectivity-table-title" className="text-lg font-semibold">
        {t('connectivity.table.title')}
      </h2>
      <div className="flex flex-wrap gap-4">
        <SelectField
          id="connectivity-level"
          label={t('connectivity.table.level')}
          value={level === null ? '' : String(level)}
          onChange={(e) => actor.send({ type: 'connectivity.level', level: e.target.value === '' ? null : Number(e.target.value) })}
        >
          <option value="">{t('connectivity.table.allLevels')}</option>
          {data.levels.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="connectivity-sort"
          label={t('connectivity.table.sort')}
          value={sort}
          onChange={(e) => actor.send({ type: 'connectivity.sort', sort: e.target.value as ConnectivitySort })}
        >
          {CONNECTIVITY_SORTS.map((s) => (
            <option key={s} value={s}>
              {t(SORT_LABEL[s])}
            </option>
          ))}
        </SelectField>
      </div>
      <p className="text-sm text-muted-foreground">{t('connectivity.table.cutOffNote', { percent: Math.round(CUT_OFF_SHARE * 100) })}</p>
      {data.levels.length === 0 ? <p className="text-sm text-muted-foreground">{t('connectivity.table.empty')}</p> : null}
      {levels.map((shown) => (
        <LevelTable
          key={shown.level.id}
          level={shown.level}
          courses={shown.courses}
          sort={sort}
          onSortByCoverage={() => actor.send({ type: 'connectivity.sortByCoverage' })}
          locale={locale}
        />
      ))}
    </section>
  );
}

function LevelTable({
  level,
  courses,
  sort,
  onSortByCoverage,
  locale,
}: {
  level: ConnectivityRow;
  courses: ConnectivityRow[];
  sort: ConnectivitySort;
  onSortByCoverage: () => void;
  locale: string;
}) {
  const t = useT();
  const n = (value: number) => formatNumber(value, locale);
  return (
    <ScrollRegion label={level.name} className="rounded-lg border" data-level={level.id}>
      <table className="w-full min-w-[36rem] text-sm">
        <caption className="bg-muted/50 px-3 py-2 text-left font-semibold">{level.name}</caption>
        <thead>
          <tr className="border-b text-left">
            <ColumnHeader>{t('connectivity.table.course')}</ColumnHeader>
            <ColumnHeader align="end">{t('connectivity.table.students')}</ColumnHeader>
            <ColumnHeader align="end">{t('connectivity.table.guardians')}</ColumnHeader>
            <ColumnHeader>{t('connectivity.table.devices')}</ColumnHeader>
            <SortableHeader
              align="end"
              direction={sort === 'coverageAsc' ? 'ascending' : sort === 'coverageDesc' ? 'descending' : null}
              directionLabel={t(sort === 'coverageAsc' ? 'connectivity.table.ascending' : 'connectivity.table.descending')}
              onSort={onSortByCoverage}
            >
              {t('connectivity.table.coverage')}
            </SortableHeader>
          </tr>
        </thead>
        <tbody>
          {courses.length === 0 ? (
            <tr>
              <td colSpan={5} className="px-3 py-3 text-muted-foreground">
                {t('connectivity.table.noCourses')}
              </td>
            </tr>
          ) : null}
          {courses.map((course) => {
            const cutOff = isCutOff(course);
            return (
              <tr
                key={course.id}
                data-course={course.id}
                data-cut-off={cutOff || undefined}
                className={cn('border-b last:border-0', cutOff && 'bg-destructive/10')}
              >
                <th scope="row" className="px-3 py-2 text-left font-medium">
                  <span className="flex flex-wrap items-center gap-2">
                    <Link
                      href={`/connectivity/course/${course.id}`}
                      className="rounded-sm text-primary underline-offset-4 hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                    >
                      {course.name}
                    </Link>
                    {cutOff ? <Badge variant="destructive">{t('connectivity.table.cutOff')}</Badge> : null}
                  </span>
                </th>
                <NumberCell>{n(course.students)}</NumberCell>
                <NumberCell>{n(course.guardians)}</NumberCell>
                <td className="px-3 py-2">
                  <span className="flex flex-wrap items-center gap-x-3 gap-y-1 tabular-nums">
                    {DEVICE_STATUSES.map((status) => (
                      <span key={status} className="inline-flex items-center gap-1" data-devices={status}>
                        <DeviceDot status={status} />
                        {n(course.devices[status])}
                      </span>
                    ))}
                  </span>
                </td>
                <NumberCell data-coverage>
                  {formatPercent(course.coverage.share, locale)}
                  {course.coverage.share === null ? null : (
                    <span className="block text-xs text-muted-foreground">
                      {n(course.coverage.reached)}/{n(course.coverage.addressed)}
                    </span>
                  )}
                </NumberCell>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
