// The seed's rows: a type for each table row the seed writes, and SeedData, the whole demo data set.
// Types only: the generators (./generate.ts and the modules it calls) fill them and ./write.ts inserts them,
// so every seed module imports its rows from here and none imports another's just for a type.
import type { userPolicies, userRoles, users } from '../db/schema/auth';
import type {
  institutionChannels,
  institutionQuotas,
  institutionSignatures,
  recipientListMembers,
  recipientLists,
  smsMonthlyLimits,
  smsUsage,
  userChannelPermissions,
} from '../db/schema/compose';
import type { deliveries } from '../db/schema/delivery';
import type { institutions } from '../db/schema/institutions';
import type { mailboxEntries, messageAttachments, messageRecipients, messages } from '../db/schema/messages';
import type { newsCategories, newsPostGroups, newsPosts } from '../db/schema/news';
import type {
  courses,
  electiveStudents,
  electives,
  guardians,
  levels,
  positions,
  staff,
  studentGuardians,
  students,
} from '../db/schema/school';
import type { templates } from '../db/schema/templates';

type WithId<T> = T & { id: number };

// ── The school and its people (./generate.ts)

type InstitutionRow = WithId<typeof institutions.$inferInsert>;
export type LevelRow = WithId<typeof levels.$inferInsert>;
export type CourseRow = WithId<typeof courses.$inferInsert>;
export type StudentRow = WithId<typeof students.$inferInsert>;
export type GuardianRow = WithId<typeof guardians.$inferInsert>;
type StudentGuardianRow = typeof studentGuardians.$inferInsert;
type PositionRow = WithId<typeof positions.$inferInsert>;
export type StaffRow = WithId<typeof staff.$inferInsert>;
export type ElectiveRow = WithId<typeof electives.$inferInsert>;
type ElectiveStudentRow = typeof electiveStudents.$inferInsert;
/** The password is hashed when the rows are written (hashes are salted, hence not deterministic). */
/** `password` null: a colleague's own account, whose password the demo does not know (nobody signs in as them). */
export type SeedUserRow = WithId<Omit<typeof users.$inferInsert, 'passwordHash'>> & { password: string | null };
type UserRoleRow = typeof userRoles.$inferInsert;
type UserPolicyRow = typeof userPolicies.$inferInsert;

// ── Compose: channels, permissions, signatures, quotas, recipient lists (./compose.ts)

type InstitutionChannelRow = typeof institutionChannels.$inferInsert;
type UserChannelPermissionRow = typeof userChannelPermissions.$inferInsert;
type SignatureRow = WithId<typeof institutionSignatures.$inferInsert>;
type QuotaRow = typeof institutionQuotas.$inferInsert;
export type RecipientListRow = WithId<typeof recipientLists.$inferInsert>;
export type RecipientListMemberRow = WithId<typeof recipientListMembers.$inferInsert>;

export interface ComposeSeed {
  institutionChannels: InstitutionChannelRow[];
  userChannelPermissions: UserChannelPermissionRow[];
  signatures: SignatureRow[];
  quotas: QuotaRow[];
  recipientLists: RecipientListRow[];
  recipientListMembers: RecipientListMemberRow[];
}

// ── Mailboxes (./messages.ts)

export type MessageRow = WithId<typeof messages.$inferInsert>;
export type MessageRecipientRow = typeof messageRecipients.$inferInsert;
type MessageAttachmentRow = WithId<typeof messageAttachments.$inferInsert>;
export type MailboxEntryRow = typeof mailboxEntries.$inferInsert;

/** Bytes of a seeded attachment, written into the attachments directory under its row's `storageKey`. */
export interface SeedFile {
  key: string;
  content: Buffer;
}

export interface MessageSeed {
  messages: MessageRow[];
  recipients: MessageRecipientRow[];
  /** Rows point at files on disk (`storageKey`); the bytes are in `files`. */
  attachments: MessageAttachmentRow[];
  entries: MailboxEntryRow[];
  /** Optional so an empty seed literal stays valid; written by `writeSeedFiles`. */
  files?: SeedFile[];
}

// ── Templates (./templates.ts)

export type TemplateRow = WithId<typeof templates.$inferInsert>;

// ── SMS use and every seeded delivery (./sms-use.ts, ./activity.ts)

type SmsUsageRow = typeof smsUsage.$inferInsert;
type SmsLimitRow = typeof smsMonthlyLimits.$inferInsert;
export type DeliveryRow = WithId<typeof deliveries.$inferInsert>;

export interface SmsUseSeed {
  usage: SmsUsageRow[];
  limits: SmsLimitRow[];
  deliveries: DeliveryRow[];
}

// ── The news wall (./news.ts)

type NewsCategoryRow = WithId<typeof newsCategories.$inferInsert>;
type NewsPostRow = WithId<typeof newsPosts.$inferInsert>;
type NewsPostGroupRow = typeof newsPostGroups.$inferInsert;
type NewsAttachmentRow = WithId<typeof messageAttachments.$inferInsert>;

export interface NewsSeed {
  categories: NewsCategoryRow[];
  posts: NewsPostRow[];
  groups: NewsPostGroupRow[];
  /** message_attachments rows with `newsPostId` (their bytes go with the mail's files, written by writeSeedFiles). */
  attachments: NewsAttachmentRow[];
}

// ── All of it

export interface SeedData {
  institutions: InstitutionRow[];
  levels: LevelRow[];
  courses: CourseRow[];
  students: StudentRow[];
  guardians: GuardianRow[];
  studentGuardians: StudentGuardianRow[];
  positions: PositionRow[];
  staff: StaffRow[];
  electives: ElectiveRow[];
  electiveStudents: ElectiveStudentRow[];
  users: SeedUserRow[];
  userRoles: UserRoleRow[];
  userPolicies: UserPolicyRow[];
  /** Demo mailboxes (server/seed/messages.ts). */
  mail: MessageSeed;
  /** Channels, permissions, signatures, quotas and recipient lists (server/seed/compose.ts). */
  compose: ComposeSeed;
  /** The product's template libraries and the demo staff's own templates (server/seed/templates.ts). */
  templates: TemplateRow[];
  /**
   * The SMS limit history and use, and every seeded delivery: this month's SMS (server/seed/sms-use.ts) and the
   * school year of activity (server/seed/activity.ts).
   */
  smsUse: SmsUseSeed;
  /** The news wall's categories and posts (server/seed/news.ts); its pictures' bytes are in `mail.files`. */
  news: NewsSeed;
}
