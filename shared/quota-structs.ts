// Runtime checks for the quota bodies (quota-contract.ts), in compose-structs.ts' conventions: `type()` so
// extra fields do not break older clients, `Describe` to keep in step with the contract.
import { array, boolean, enums, nullable, number, string, type, type Describe } from 'superstruct';
import type { Quota, QuotaSettings, QuotaUsage, UsageBar } from './quota-contract';

const QuotaStruct: Describe<Quota> = type({
  month: string(),
  timezone: string(),
  sms: type({ limit: number(), used: number(), remaining: number(), reserved: number(), low: boolean() }),
  email: type({ remaining: nullable(number()) }),
  whatsapp: type({ remaining: nullable(number()) }),
});

export const QuotaBodyStruct = type({ data: QuotaStruct });

const QuotaSettingsStruct: Describe<QuotaSettings> = type({
  month: string(),
  timezone: string(),
  sms: type({
    limit: number(),
    used: number(),
    remaining: number(),
    reserved: number(),
    reserve_percent: number(),
    alert_percent: nullable(number()),
    low: boolean(),
    runs_out_on: nullable(string()),
  }),
  email: type({ remaining: nullable(number()) }),
  whatsapp: type({ remaining: nullable(number()) }),
});

const UsageBarStruct: Describe<UsageBar> = type({ period: string(), used: number(), limit: number() });

const QuotaUsageStruct: Describe<QuotaUsage> = type({
  view: enums(['monthly', 'annual'] as const),
  calendar: enums(['civil', 'school'] as const),
  year: number(),
  bars: array(UsageBarStruct),
  top_senders: array(type({ user_id: number(), name: string(), segments: number(), messages: number() })),
  top_courses: array(type({ course_id: number(), name: string(), segments: number() })),
});

export const QuotaSettingsBodyStruct = type({ data: QuotaSettingsStruct });
export const QuotaUsageBodyStruct = type({ data: QuotaUsageStruct });
