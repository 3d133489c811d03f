// A page that shows many people's phones or e-mails at once is a view of contact data in bulk: one entry per
// answer, with the page's name, how many people it showed and the course, list or import it was of, never
// one per person nor their contacts (decision 0262). A page that showed no one records nothing.
import type { AuditDetailWritten } from '../../shared/audit-contract';
import type { Queryable } from '../db/client';
import { recordAudit, type AuditActor } from './record';

/** Where the contacts were shown: the people list, a course's connectivity page, the call list, a list's members, the staff list, the privacy search (documents). */
export type ContactsView = 'people_list' | 'course_connectivity' | 'call_list' | 'recipient_list' | 'staff_list' | 'privacy_search';

export async function recordContactsViewed(
  db: Queryable,
  actor: AuditActor,
  view: ContactsView,
  people: number,
  scope: AuditDetailWritten = {},
): Promise<void> {
  if (people === 0) return;
  await recordAudit(db, actor, { action: 'person.contacts_viewed', detail: { view, people, ...scope } });
}
