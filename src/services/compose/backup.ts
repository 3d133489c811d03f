// The browser's backup of the compose form (docs/decisions/0039-compose-backs-up-to-the-browser.md): one
// localStorage entry per form (user and draft/reply/new), versioned and checked by a struct, so a corrupt or
// older entry is ignored rather than trusted.
import { array, boolean, enums, is, literal, nullable, number, object, optional, string, type, type Struct } from 'superstruct';
import type { RecipientPick } from '../../../shared/compose-contract';
import { AttachmentSummaryStruct, RecipientPickStruct } from '../../../shared/compose-structs';
import type { AttachmentSummary } from '../../../shared/messages-contract';
import { CHANNEL_CODES, type ChannelCode } from '../../../shared/codes';

/** What is kept so a reload or a crash loses nothing typed. */
export interface ComposeBackup {
  title: string;
  content: string;
  channels: ChannelCode[];
  recipients: RecipientPick[];
  /** Uploaded attachments (already on the server, so their ids stay valid). */
  attachments: AttachmentSummary[];
  allowReplies: boolean;
  copyToSender: boolean;
  /** The "Emergencia" mark (absent in backups written before it existed). */
  emergency?: boolean;
  schedule: { date: string; time: string } | null;
  /** The draft this form saves into, once saved. */
  draftId: number | null;
  /** Epoch ms of the last change. */
  savedAt: number;
}

export const BACKUP_VERSION = 1;
const BACKUP_PREFIX = 'hermes.compose.';

const ChannelCodeStruct = enums(CHANNEL_CODES);

const ComposeBackupStruct = object({
  v: literal(BACKUP_VERSION),
  value: type({
    title: string(),
    content: string(),
    channels: array(ChannelCodeStruct),
    recipients: array(RecipientPickStruct),
    attachments: array(AttachmentSummaryStruct),
    allowReplies: boolean(),
    copyToSender: boolean(),
    emergency: optional(boolean()),
    schedule: nullable(type({ date: string(), time: string() })),
    draftId: nullable(number()),
    savedAt: number(),
  }),
});

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    // Access can throw (storage disabled by the browser); the form still works without a backup.
    return null;
  }
}

/**
 * The value stored under `key` (any form's backup: message compose's below, the news wall's in
 * services/news/compose.ts), or null when there is none or it fails `struct` (another version, corrupt).
 */
export function readBackup<T>(key: string, struct: Struct<T, unknown>): T | null {
  const store = storage();
  if (!store) return null;
  let raw: string | null;
  try {
    raw = store.getItem(BACKUP_PREFIX + key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  return is(parsed, struct) ? parsed : null;
}

/** Writes `entry` under `key`; a full or disabled storage loses the backup, never the typing. */
export function writeBackup(key: string, entry: unknown): void {
  try {
    storage()?.setItem(BACKUP_PREFIX + key, JSON.stringify(entry));
  } catch {
    // Quota exceeded or storage disabled: losing the backup must not break typing.
  }
}

/** The backup under `key`, or null when there is none, it is from another version, or it is corrupt. */
export function loadComposeBackup(key: string): ComposeBackup | null {
  return (readBackup(key, ComposeBackupStruct)?.value as ComposeBackup | undefined) ?? null;
}

export function saveComposeBackup(key: string, value: ComposeBackup): void {
  writeBackup(key, { v: BACKUP_VERSION, value });
}

export function clearComposeBackup(key: string): void {
  try {
    storage()?.removeItem(BACKUP_PREFIX + key);
  } catch {
    // Same as above.
  }
}

/**
 * The key of draft `draftId`'s backup, from the key of the form that saved it: `compose:7:new` and
 * `compose:7:reply-31` become `compose:7:55`, the key the page uses for `/new?draft=55`. Once a form is
 * saved its backup moves there, so reopening the draft from the drafts folder finds what was typed after.
 */
export const draftBackupKey = (key: string, draftId: number): string => key.replace(/[^:]*$/, String(draftId));

/**
 * Drops every backup (any key) that saves into draft `draftId`: once that draft is sent or scheduled,
 * a backup of it (say the "new" form that first saved it) must not bring it back.
 */
export function clearDraftBackups(draftId: number): void {
  const store = storage();
  if (!store) return;
  try {
    const keys: string[] = [];
    for (let index = 0; index < store.length; index += 1) {
      const key = store.key(index);
      if (key?.startsWith(BACKUP_PREFIX)) keys.push(key);
    }
    for (const key of keys) {
      if (loadComposeBackup(key.slice(BACKUP_PREFIX.length))?.draftId === draftId) store.removeItem(key);
    }
  } catch {
    // Same as above.
  }
}
