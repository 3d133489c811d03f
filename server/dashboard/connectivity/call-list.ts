// The "Lista de llamados" of a course: its guardians the school cannot count on reaching, with what is wrong
// and the other guardians' contacts (JSON; the CSV is ./call-list-csv.ts).
import {
  CALL_LIST_MESSAGES_MAX,
  COVERAGE_MESSAGES,
  type CallList,
  type CallListRow,
  type CourseGuardian,
  type FixHint,
} from '../../../shared/dashboard-contract';
import { formatPhone } from '../../../shared/phone-format';
import type { Queryable } from '../../db/client';
import { type FieldErrors, hasFieldErrors } from '../../http/field-errors';
import { settleSmsPhones } from '../../recipients/sms-phones';
import { loadCourse } from './course';
import { CONNECTIVITY_MESSAGES } from './figures';

/**
 * On the call list when the school cannot count on reaching them: no app and no usable number, their SMS
 * failed or they texted "BAJA" on a phone channel, or their e-mail bounced
 * (docs/decisions/0078-connectivity-call-list-and-csv.md, docs/decisions/0247-opt-outs-everywhere.md).
 */
function needsCall(fix: readonly FixHint[]): boolean {
  const noApp = fix.includes('no_app');
  const phoneLost = ['phone_missing', 'phone_invalid', 'sms_failed', 'sms_opted_out', 'whatsapp_opted_out'] as const;
  return (noApp && phoneLost.some((hint) => fix.includes(hint))) || fix.includes('email_bounced');
}

function contacts(g: CourseGuardian): string {
  return [g.phone ? formatPhone(g.phone) : null, g.email].filter(Boolean).join(', ');
}

export type CallListQuery = { messages: number; format: 'json' | 'csv' };

export function parseCallListQuery(
  query: Record<string, string | undefined>,
): { ok: true; value: CallListQuery } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const raw = query.messages;
  let messages: number = COVERAGE_MESSAGES;
  if (raw !== undefined) {
    messages = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
    if (!(messages >= 1 && messages <= CALL_LIST_MESSAGES_MAX)) errors.messages = [CONNECTIVITY_MESSAGES.messages];
  }
  const format = query.format ?? 'json';
  if (format !== 'json' && format !== 'csv') errors.format = [CONNECTIVITY_MESSAGES.format];
  if (hasFieldErrors(errors)) return { ok: false, errors };
  return { ok: true, value: { messages, format: format as CallListQuery['format'] } };
}

export async function readCallList(
  db: Queryable,
  institutionId: number,
  courseId: number,
  messages: number,
  now = new Date(),
): Promise<CallList | null> {
  await settleSmsPhones(db, institutionId);
  const data = await loadCourse(db, institutionId, courseId, messages, null);
  if (!data) return null;
  const rows: CallListRow[] = [];
  for (const student of data.students) {
    for (const g of student.guardians) {
      if (!needsCall(g.fix)) continue;
      rows.push({
        student: student.name,
        course: data.head.name,
        guardian: g.name,
        role: g.role,
        reasons: g.fix,
        opted_out: g.opted_out,
        phone: g.phone,
        email: g.email,
        alternatives: student.guardians
          .filter((o) => o.id !== g.id && contacts(o) !== '')
          .map((o) => `${o.name} (${o.role}): ${contacts(o)}`),
      });
    }
  }
  return { course: { id: Number(data.head.id), name: data.head.name }, messages, generated_at: now.toISOString(), rows };
}
