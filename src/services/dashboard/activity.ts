// Staff activity, the activity summary and the rankings (shared/dashboard-contract.ts `DASHBOARD_API`) as
// actor logic; every body is checked (shared/dashboard-structs.ts) before a machine sees it. The period
// goes as the contract spells it (`period=month&month=YYYY-MM`, `period=school-year&year=YYYY`, nothing for
// the server's default).
import { fromCall, parseBody } from '../http/client';
import {
  DASHBOARD_API,
  type ActivitySummary,
  type CourseMetric,
  type PeriodKind,
  type RankBy,
  type Ranking,
  type StaffActivity,
  type UserMetric,
} from '../../../shared/dashboard-contract';
import { ActivitySummaryBodyStruct, RankingBodyStruct, StaffActivityBodyStruct } from '../../../shared/dashboard-structs';

export interface PeriodParam {
  kind: PeriodKind;
  /** null: the server's default (this month, or the school year holding it). */
  key: string | null;
}

/** A period's query parameters, in order (the screens' addresses use the same); none for the default month. */
export function periodParams(period: PeriodParam): [string, string][] {
  if (period.kind === 'month')
    return period.key === null
      ? []
      : [
          ['period', 'month'],
          ['month', period.key],
        ];
  return period.key === null
    ? [['period', 'school-year']]
    : [
        ['period', 'school-year'],
        ['year', period.key],
      ];
}

const periodQuery = (period: PeriodParam): Record<string, string> => Object.fromEntries(periodParams(period));

export interface StaffActivityQuery {
  period: PeriodParam;
  /** A cargo, or null for every one. */
  positionId: number | null;
}

/** `GET /dashboard/users?period=…&position_id=`: each staff member's figures in the period. */
export const fetchStaffActivity = fromCall<StaffActivity, StaffActivityQuery>(async ({ input, signal, http }) => {
  const query = { ...periodQuery(input.period), ...(input.positionId === null ? {} : { position_id: String(input.positionId) }) };
  const body = await http.request(DASHBOARD_API.users, { query, signal });
  return parseBody(body, StaffActivityBodyStruct, DASHBOARD_API.users).data;
});

/** `GET /dashboard/summary?year=`: messages per month of the school year, this month's top staff and courses. */
export const fetchActivitySummary = fromCall<ActivitySummary, { year: string | null }>(async ({ input, signal, http }) => {
  const query = input.year === null ? {} : { year: input.year };
  const body = await http.request(DASHBOARD_API.summary, { query, signal });
  return parseBody(body, ActivitySummaryBodyStruct, DASHBOARD_API.summary).data;
});

export type RankingKind = 'courses' | 'users';

export interface RankingQuery {
  kind: RankingKind;
  period: PeriodParam;
  metric: CourseMetric | UserMetric;
  by: RankBy;
}

/** `GET /ranking/courses|users?period=…&metric=&by=`. */
export const fetchRanking = fromCall<Ranking, RankingQuery>(async ({ input, signal, http }) => {
  const path = input.kind === 'courses' ? DASHBOARD_API.rankingCourses : DASHBOARD_API.rankingUsers;
  const query = { ...periodQuery(input.period), metric: input.metric, by: input.by };
  const body = await http.request(path, { query, signal });
  return parseBody(body, RankingBodyStruct, path).data;
});
