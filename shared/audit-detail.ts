// An audit entry's detail in words, for the screen (its locale's texts) and the CSV (server/audit/texts.ts):
// each key named, codes, field names, roles, actions and kinds said in Spanish, ids, counts and days as they
// are. A key or a code no list knows (an older or newer writer's) reads in a generic form, never as an error.
import {
  AUDIT_ACTIONS,
  AUDIT_DETAIL_CODES,
  AUDIT_DETAIL_FIELDS,
  AUDIT_DETAIL_KEYS,
  AUDIT_SUBJECT_KINDS,
  type AuditAction,
  type AuditDetail,
  type AuditDetailCode,
  type AuditDetailField,
  type AuditDetailKey,
  type AuditDetailValue,
  type AuditSubjectKind,
  type AuditValueKind,
} from './audit-contract';
import { ROLE_CODES, type RoleCode } from './codes';

/** The words of one locale. */
export interface AuditDetailWords {
  key: (key: AuditDetailKey) => string;
  code: (code: AuditDetailCode) => string;
  field: (field: AuditDetailField) => string;
  role: (role: RoleCode) => string;
  action: (action: AuditAction) => string;
  kind: (kind: AuditSubjectKind) => string;
  yes: string;
  no: string;
  none: string;
}

const among = <T extends string>(list: readonly T[], value: string): value is T => (list as readonly string[]).includes(value);

/** A code no list knows, readable: `new_thing` → «new thing». Anything else (a day, an id) stays as it is. */
const generic = (value: string): string => (/^[a-z][a-zA-Z0-9_.-]*$/.test(value) ? value.replace(/[_.-]+/g, ' ') : value);

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function word(kind: AuditValueKind, value: string, words: AuditDetailWords): string {
  switch (kind) {
    case 'field':
      return among(AUDIT_DETAIL_FIELDS, value) ? words.field(value) : generic(value);
    case 'role':
      return among(ROLE_CODES, value) ? words.role(value) : generic(value);
    case 'action':
      return among(AUDIT_ACTIONS, value) ? words.action(value) : generic(value);
    case 'kind':
      return among(AUDIT_SUBJECT_KINDS, value) ? words.kind(value) : generic(value);
    case 'code':
      return among(AUDIT_DETAIL_CODES, value) ? words.code(value) : generic(value);
    case 'plain':
      return value;
  }
}

function valueText(kind: AuditValueKind, value: AuditDetailValue, words: AuditDetailWords): string {
  if (value === null) return words.none;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') {
    // The audit export's filters keep their actions as one comma-separated value.
    if (kind === 'action')
      return value
        .split(',')
        .map((one) => word(kind, one, words))
        .join(', ');
    return word(kind, value, words);
  }
  return value.length === 0 ? words.none : value.map((one) => (typeof one === 'number' ? String(one) : word(kind, one, words))).join(', ');
}

const ORDER = Object.keys(AUDIT_DETAIL_KEYS);
/** A key's place: the contract's order (jsonb keeps none), keys it does not know last. */
const place = (key: string): number => {
  const at = ORDER.indexOf(key);
  return at === -1 ? ORDER.length : at;
};

/** Each pair of the detail as `[label, value]`, in the contract's order of keys. */
export function auditDetailParts(detail: AuditDetail, words: AuditDetailWords): [string, string][] {
  return Object.entries(detail)
    .sort(([a], [b]) => place(a) - place(b))
    .map(([key, value]): [string, string] => {
      if (Object.hasOwn(AUDIT_DETAIL_KEYS, key)) {
        const known = key as AuditDetailKey;
        return [words.key(known), valueText(AUDIT_DETAIL_KEYS[known], value, words)];
      }
      return [capitalised(generic(key)), valueText('code', value, words)];
    });
}
