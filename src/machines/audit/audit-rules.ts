// The audit screen's rules, apart from the machine so the view and the tests read the same ones.
import { AUDIT_ACTIONS, type AuditAction } from '../../../shared/audit-contract';

/** `action` added or taken away, the list kept in the contract's order (the filter's words read the same). */
export function toggledAction(actions: readonly AuditAction[], action: AuditAction): AuditAction[] {
  const on = actions.includes(action) ? actions.filter((a) => a !== action) : [...actions, action];
  return AUDIT_ACTIONS.filter((a) => on.includes(a));
}

/** Days 'YYYY-MM-DD' (or '' for an open end): the end is not before the start. */
export const isRangeOrdered = (from: string, to: string): boolean => from === '' || to === '' || from <= to;
