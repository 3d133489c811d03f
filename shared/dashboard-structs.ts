// Runtime checks for the data screens' bodies (dashboard-contract.ts), in quota-structs.ts' conventions:
// `type()` so extra fields do not break older clients, `Describe` to keep in step with the contract.
// One block per screen family: connectivity (conn-spa) first; staff activity, summary and rankings after it.
import { array, assign, boolean, enums, nullable, number, optional, string, type, union, type Describe } from 'superstruct';
import { CHANNEL_CODES } from './codes';
import type {
  ActivitySummary,
  CallList,
  CallListRow,
  Connectivity,
  ConnectivityRow,
  CourseConnectivity,
  CourseGuardian,
  DeviceMix,
  MissedDelivery,
  OptedOut,
  Period,
  Ranking,
  RankingRow,
  StaffActivity,
  StaffActivityRow,
} from './dashboard-contract';

const PeriodStruct: Describe<Period> = type({
  kind: enums(['month', 'school-year'] as const),
  key: string(),
  from: string(),
  to: string(),
});

const DeviceMixStruct: Describe<DeviceMix> = type({ blue: number(), green: number(), yellow: number(), red: number() });

// --- Connectivity (/dashboard/connectivity, /connectivity/course/:id, the call list) ---

const ChannelReachStruct = type({ 'app-mobile': number(), 'e-mail': number(), sms: number(), whatsapp: number() });
const FixHintStruct = enums([
  'phone_missing',
  'phone_invalid',
  'email_missing',
  'email_bounced',
  'sms_failed',
  'sms_opted_out',
  'whatsapp_opted_out',
  'no_app',
] as const);

const OptedOutStruct: Describe<OptedOut> = type({ channel: enums(['sms', 'whatsapp'] as const), at: string() });
const GuardianRoleStruct = enums(['titular', 'suplente'] as const);

const ConnectivityRowStruct: Describe<ConnectivityRow> = type({
  id: number(),
  name: string(),
  students: number(),
  guardians: number(),
  reach: ChannelReachStruct,
  devices: DeviceMixStruct,
  coverage: type({ reached: number(), addressed: number(), share: nullable(number()) }),
});

const ConnectivityStruct: Describe<Connectivity> = type({
  school: ConnectivityRowStruct,
  levels: array(assign(ConnectivityRowStruct, type({ courses: array(ConnectivityRowStruct) }))),
  install_link: optional(type({ sent: number(), installed: number() })),
});

const MissedDeliveryStruct: Describe<MissedDelivery> = type({
  message_id: number(),
  title: string(),
  sent_at: string(),
  channel: enums(CHANNEL_CODES),
  status: enums(['not_received', 'error', 'failed'] as const),
  author: nullable(string()),
  can_view_reception: boolean(),
});

const CourseGuardianStruct: Describe<CourseGuardian> = type({
  id: number(),
  name: string(),
  role: GuardianRoleStruct,
  device_status: enums(['blue', 'green', 'yellow', 'red'] as const),
  phone: nullable(string()),
  email: nullable(string()),
  app_installed: boolean(),
  fix: array(FixHintStruct),
  opted_out: array(OptedOutStruct),
  missed: array(MissedDeliveryStruct),
});

const CourseConnectivityStruct: Describe<CourseConnectivity> = type({
  course: type({ id: number(), name: string(), level: type({ id: number(), name: string() }) }),
  summary: ConnectivityRowStruct,
  students: array(type({ id: number(), name: string(), guardians: array(CourseGuardianStruct) })),
});

const CallListRowStruct: Describe<CallListRow> = type({
  student: string(),
  course: string(),
  guardian: string(),
  role: GuardianRoleStruct,
  reasons: array(FixHintStruct),
  opted_out: array(OptedOutStruct),
  phone: nullable(string()),
  email: nullable(string()),
  alternatives: array(string()),
});

const CallListStruct: Describe<CallList> = type({
  course: type({ id: number(), name: string() }),
  messages: number(),
  generated_at: string(),
  rows: array(CallListRowStruct),
});

export const ConnectivityBodyStruct = type({ data: ConnectivityStruct });
export const CourseConnectivityBodyStruct = type({ data: CourseConnectivityStruct });
export const CallListBodyStruct = type({ data: CallListStruct });

// --- end of connectivity ---

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

const StaffActivityStruct: Describe<StaffActivity> = type({
  period: PeriodStruct,
  positions: array(NamedStruct),
  staff_on_register: number(),
  active_staff: number(),
  activity_percent: number(),
  rows: array(StaffActivityRowStruct),
});

const ActivitySummaryStruct: Describe<ActivitySummary> = type({
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

const RankingStruct: Describe<Ranking> = type({
  period: PeriodStruct,
  previous_period: PeriodStruct,
  metric: enums(['read', 'reached', 'messages'] as const),
  by: enums(['value', 'improvement'] as const),
  rows: array(RankingRowStruct),
});

export const StaffActivityBodyStruct = type({ data: StaffActivityStruct });
export const ActivitySummaryBodyStruct = type({ data: ActivitySummaryStruct });
export const RankingBodyStruct = type({ data: RankingStruct });
