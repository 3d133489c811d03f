// Runtime checks for the data screens' bodies (dashboard-contract.ts), in quota-structs.ts' conventions:
// `type()` so extra fields do not break older clients, `Describe` to keep in step with the contract.
// One block per screen family: connectivity (conn-spa) and staff activity, summary and rankings (act-spa).
import { array, enums, nullable, number, string, type, union, type Describe } from 'superstruct';
import type { ActivitySummary, DeviceMix, Period, Ranking, RankingRow, StaffActivity, StaffActivityRow } from './dashboard-contract';

export const PeriodStruct: Describe<Period> = type({
  kind: enums(['month', 'school-year'] as const),
  key: string(),
  from: string(),
  to: string(),
});

export const DeviceMixStruct: Describe<DeviceMix> = type({ blue: number(), green: number(), yellow: number(), red: number() });

// --- Staff activity, the activity summary and the rankings (act-spa) -----------------------------------

const NamedStruct = type({ id: number(), name: string() });

const StaffActivityRowStruct: Describe<StaffActivityRow> = type({
  user_id: number(),
  name: string(),
  position: nullable(NamedStruct),
  messages: number(),
  people_reached: number(),
  read_rate: nullable(number()),
  active_days: number(),
});

export const StaffActivityStruct: Describe<StaffActivity> = type({
  period: PeriodStruct,
  positions: array(NamedStruct),
  staff_on_register: number(),
  active_staff: number(),
  activity_percent: number(),
  rows: array(StaffActivityRowStruct),
});

export const ActivitySummaryStruct: Describe<ActivitySummary> = type({
  school_year: PeriodStruct,
  months: array(type({ month: string(), messages: number(), deliveries: number() })),
  top_staff: array(type({ user_id: number(), name: string(), messages: number() })),
  top_courses: array(type({ course_id: number(), name: string(), messages: number() })),
  devices: DeviceMixStruct,
});

const RankingRowStruct: Describe<RankingRow> = type({
  position: number(),
  id: number(),
  name: string(),
  detail: nullable(union([string(), number()])),
  value: number(),
  previous: nullable(number()),
  change: nullable(number()),
  previous_position: nullable(number()),
});

export const RankingStruct: Describe<Ranking> = type({
  period: PeriodStruct,
  previous_period: PeriodStruct,
  metric: enums(['read', 'reached', 'messages'] as const),
  by: enums(['value', 'improvement'] as const),
  rows: array(RankingRowStruct),
});

export const StaffActivityBodyStruct = type({ data: StaffActivityStruct });
export const ActivitySummaryBodyStruct = type({ data: ActivitySummaryStruct });
export const RankingBodyStruct = type({ data: RankingStruct });
