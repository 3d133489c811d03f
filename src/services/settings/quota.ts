// The quota screen's calls (shared/quota-contract.ts `QUOTA_API`) as actor logic; every body is checked
// (shared/quota-structs.ts) before a machine sees it.
import { fromCall, parseBody } from '../http/client';
import {
  QUOTA_API,
  type QuotaSettings,
  type QuotaSettingsInput,
  type QuotaUsage,
  type UsageCalendar,
  type UsageView,
} from '../../../shared/quota-contract';
import { QuotaSettingsBodyStruct, QuotaUsageBodyStruct } from '../../../shared/quota-structs';

/** `GET /quota/settings`: this month's limit, use, reserve, alert and projection, and the balances. */
export const fetchQuotaSettings = fromCall<QuotaSettings, void>(async ({ signal, http }) => {
  const body = await http.request(QUOTA_API.settings, { signal });
  return parseBody(body, QuotaSettingsBodyStruct, QUOTA_API.settings).data;
});

/** `PATCH /quota/settings` with the fields that changed. */
export const saveQuotaSettings = fromCall<QuotaSettings, QuotaSettingsInput>(async ({ input, signal, http }) => {
  const body = await http.request(QUOTA_API.settings, { method: 'PATCH', body: { ...input }, signal });
  return parseBody(body, QuotaSettingsBodyStruct, QUOTA_API.settings).data;
});

export interface UsageQuery {
  view: UsageView;
  calendar: UsageCalendar;
  /** null: the server's default, the year holding this month. */
  year: number | null;
}

/** `GET /quota/usage?view=&year=&calendar=`: the bars, and this month's top senders and courses. */
export const fetchQuotaUsage = fromCall<QuotaUsage, UsageQuery>(async ({ input, signal, http }) => {
  const query = { view: input.view, calendar: input.calendar, year: input.year ?? undefined };
  const body = await http.request(QUOTA_API.usage, { query, signal });
  return parseBody(body, QuotaUsageBodyStruct, QUOTA_API.usage).data;
});
