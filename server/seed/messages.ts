// Demo mailboxes: for the demo staff of every school, an inbox with guardian and colleague
// messages (some unread, some replies, some with attachments), sent messages to courses and guardians (their
// deliveries and the recipients' states from them: ./sent-outcomes.ts), scheduled messages, drafts and a
// few trashed ones. Deterministic like the rest of the
// seed: fixed dates and a seeded PRNG. `bulkInbox` adds N more inbox messages to administrador@sanandres.cl.
import type { RecipientPick } from '../../shared/compose-contract';
import type { AttachmentStore } from '../storage/attachments';
import { fold } from '../../shared/fold';
import { recipientsLabel } from '../messages/queries';
import type { SchoolCountry } from '../../shared/school-year';
import { greeting, MAIL_TOPICS } from './message-topics';
import { mulberry32, type Rng } from './prng';
import type { CourseRow, GuardianRow, StaffRow, SeedUserRow, MessageRow, MailboxEntryRow, MessageSeed, SeedData } from './rows';

/** Demo users that get a full mailbox. */
export const MAILBOX_USERS = [
  'administrador@sanandres.cl',
  'docente@sanandres.cl',
  'administrador@liceoelqui.cl',
  'docente@liceoelqui.cl',
  'administrador@benitojuarez.edu.mx',
  'docente@benitojuarez.edu.mx',
] as const;

export const BULK_INBOX_USER = 'administrador@sanandres.cl';

export const MAILBOX_SIZES = { inbox: 40, sent: 30, scheduled: 3, draft: 4, trash: 3 } as const;

/** "Now" of the demo data: everything sent is before it, everything scheduled well after it. */
const BASE = Date.UTC(2026, 10, 20, 13, 0, 0);
const HOUR = 3_600_000;
const CHANNEL_SETS: string[][] = [
  ['app-mobile', 'e-mail'],
  ['app-mobile'],
  ['app-mobile', 'e-mail', 'sms'],
  ['e-mail'],
  ['app-mobile', 'whatsapp'],
];

const STATUS_WEIGHTS = [
  ['read', 55],
  ['received', 30],
  ['not_received', 8],
  ['error', 4],
  ['failed', 3],
] as const;

function fullName(p: { firstNames: string; lastNameFather: string; lastNameMother: string }): string {
  return `${p.firstNames.split(' ')[0]} ${p.lastNameFather} ${p.lastNameMother}`;
}

/** A tiny but valid one-page PDF with one line of text (ASCII only). */
function tinyPdf(text: string): Buffer {
  const line = text
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[()\\]/g, '');
  const stream = `BT /F1 14 Tf 72 720 Td (${line}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

interface FileSpec {
  name: string;
  contentType: string;
  content: Buffer;
}

function fileFor(name: string, title: string, who: string): FileSpec {
  const content = name.endsWith('.pdf')
    ? tinyPdf(`${title} - ${who}`)
    : Buffer.from(`${title}\n\n${who}\nDocumento de demostración de Hermes.\n`, 'utf8');
  return { name, contentType: name.endsWith('.pdf') ? 'application/pdf' : 'text/plain; charset=utf-8', content };
}

/** Stable per row id, so the same seed always names the same files. */
function seedStorageKey(attachmentId: number): string {
  return `seed/${String(attachmentId).padStart(6, '0')}`;
}

/** Writes the seed's attachment bytes into the attachments directory (call next to `writeSeed`). */
export async function writeSeedFiles(store: AttachmentStore, mail: MessageSeed): Promise<void> {
  for (const file of mail.files ?? []) await store.put(file.key, file.content);
}

interface SchoolView {
  /** Whose words the school's mail is written in (server/seed/message-topics.ts). */
  country: SchoolCountry;
  /** Position names by id: a family greets a teacher by title. */
  positions: Map<number, string>;
  courses: CourseRow[];
  /** Titular guardians per course, with the name of their student. */
  guardiansByCourse: Map<number, { guardian: GuardianRow; student: string }[]>;
  staff: StaffRow[];
}

function schoolViews(data: SeedData): Map<number, SchoolView> {
  const views = new Map<number, SchoolView>();
  for (const inst of data.institutions) {
    views.set(inst.id, { country: inst.country, positions: new Map(), courses: [], guardiansByCourse: new Map(), staff: [] });
  }
  for (const p of data.positions) views.get(p.institutionId)!.positions.set(p.id, p.name);
  for (const c of data.courses) views.get(c.institutionId)!.courses.push(c);
  for (const s of data.staff) views.get(s.institutionId)!.staff.push(s);
  const guardians = new Map(data.guardians.map((g) => [g.id, g]));
  const students = new Map(data.students.map((s) => [s.id, s]));
  for (const link of data.studentGuardians) {
    if (link.role !== 1) continue;
    const student = students.get(link.studentId)!;
    // A withdrawn student's family is no longer reached through the course (server/recipients/expand.ts).
    if (student.withdrawnAt) continue;
    const view = views.get(student.institutionId)!;
    const list = view.guardiansByCourse.get(student.courseId) ?? [];
    list.push({ guardian: guardians.get(link.guardianId)!, student: student.firstNames.split(' ')[0]! });
    view.guardiansByCourse.set(student.courseId, list);
  }
  return views;
}

class Builder {
  constructor(readonly out: MessageSeed = { messages: [], recipients: [], attachments: [], entries: [], files: [] }) {}

  message(row: Omit<MessageRow, 'id' | 'search'>): MessageRow {
    const m: MessageRow = { ...row, id: this.out.messages.length + 1, search: fold(`${row.title}\n${row.content}`) };
    this.out.messages.push(m);
    return m;
  }

  attach(messageId: number, file: FileSpec, institutionId: number, ownerUserId: number | null): void {
    const id = this.out.attachments.length + 1;
    const key = seedStorageKey(id);
    this.out.attachments.push({
      id,
      messageId,
      institutionId,
      ownerUserId,
      name: file.name,
      size: file.content.length,
      contentType: file.contentType,
      storageKey: key,
    });
    this.out.files!.push({ key, content: file.content });
  }

  entry(row: Omit<MailboxEntryRow, 'counterpartSearch'>): void {
    this.out.entries.push({ ...row, counterpartSearch: fold(row.counterpart) });
  }
}

/**
 * The guardians who wrote from the app in the mailboxes, each with the time of their first message: they have
 * the app since before then (compose.ts gives it to them, activity.ts does not take it away), as a real
 * answer from the app requires a signed-in app.
 */
export function appWriters(mail: MessageSeed): Map<number, number> {
  const first = new Map<number, number>();
  for (const m of mail.messages) {
    if (m.senderKind !== 'apoderado' || !m.sentAt) continue;
    const at = m.sentAt.getTime();
    first.set(m.senderRefId, Math.min(at, first.get(m.senderRefId) ?? at));
  }
  return first;
}

export function generateMessages(data: SeedData): MessageSeed {
  const b = new Builder();
  const views = schoolViews(data);
  const usersByEmail = new Map(data.users.map((u) => [u.email, u]));
  MAILBOX_USERS.forEach((email, index) => {
    const user = usersByEmail.get(email);
    if (user) addMailbox(b, user, views.get(user.institutionId)!, mulberry32(0x4d41494c + index));
  });
  return b.out;
}

/** How a family opens a message to `user` (server/seed/message-topics.ts `greeting`). */
function greetingFor(view: SchoolView, user: SeedUserRow): string {
  const me = view.staff.find((s) => s.userId === user.id);
  return greeting(view.country, {
    firstNames: me?.firstNames ?? user.name,
    lastNameFather: me?.lastNameFather ?? '',
    position: (me?.positionId != null ? view.positions.get(me.positionId) : undefined) ?? '',
  });
}

/**
 * `--messages N`: appends N guardian messages to the admin's inbox (`data.mail`, ids continuing). Run last,
 * once the guardians' apps are settled: each is written by a guardian who had the app by then, and the rest
 * of the seed is the same with or without them.
 */
export function addBulkInboxTo(data: SeedData, count: number): void {
  const user = data.users.find((u) => u.email === BULK_INBOX_USER);
  if (count > 0 && user) addBulkInbox(new Builder(data.mail), user, schoolViews(data).get(user.institutionId)!, count);
}

function addMailbox(b: Builder, user: SeedUserRow, view: SchoolView, rng: Rng): void {
  const institutionId = user.institutionId;
  const me = view.staff.find((s) => s.userId === user.id);
  const meRef = me?.id ?? user.id;
  const colleagues = view.staff.filter((s) => s.userId !== user.id);
  const courses = view.courses.filter((c) => (view.guardiansByCourse.get(c.id)?.length ?? 0) > 0);
  const topics = MAIL_TOPICS[view.country];
  const hello = greetingFor(view, user);

  /**
   * A message to 1–3 courses (or one guardian), with the picks that chose them; returns its recipients label.
   * `first`: the course the message is about (its title names it): the first course picked, or the course of
   * the one guardian's child, so a title never names a course the message did not go to.
   */
  const addRecipients = (m: MessageRow, pending: boolean, first: CourseRow = rng.pick(courses)): string => {
    const messageId = m.id;
    const labels: string[] = [];
    const picks: RecipientPick[] = [];
    m.recipientPicks = picks;
    if (rng.chance(0.2)) {
      const { guardian } = rng.pick(view.guardiansByCourse.get(first.id)!);
      const name = fullName(guardian);
      labels.push(name);
      picks.push({ kind: 'guardian', id: guardian.id, label: name });
      b.out.recipients.push({
        messageId,
        recipientKind: 'apoderado',
        recipientRefId: guardian.id,
        displayName: name,
        groupKind: 'apoderado',
        groupLabel: name,
        status: pending ? 'not_received' : rng.weighted(STATUS_WEIGHTS),
      });
      return recipientsLabel(labels);
    }
    const others = rng.shuffle(courses.filter((c) => c.id !== first.id));
    const picked = [first, ...others].slice(
      0,
      rng.weighted([
        [1, 70],
        [2, 20],
        [3, 10],
      ] as const),
    );
    for (const course of picked) {
      labels.push(course.name);
      picks.push({ kind: 'course', id: course.id, audience: 'titulares', label: course.name });
      for (const { guardian } of view.guardiansByCourse.get(course.id)!.slice(0, 30)) {
        b.out.recipients.push({
          messageId,
          recipientKind: 'apoderado',
          recipientRefId: guardian.id,
          displayName: fullName(guardian),
          groupKind: course.groupType ?? 'curso',
          groupLabel: course.name,
          status: pending ? 'not_received' : rng.weighted(STATUS_WEIGHTS),
        });
      }
    }
    return recipientsLabel(labels);
  };

  const authored = (kind: 'sent' | 'scheduled' | 'draft', title: string, content: string, at: Date, scheduledAt: Date | null) =>
    b.message({
      institutionId,
      authorUserId: user.id,
      senderKind: 'funcionario',
      senderRefId: meRef,
      senderName: user.name,
      title,
      content,
      channels: rng.pick(CHANNEL_SETS),
      allowReplies: rng.chance(0.6),
      copyToSender: rng.chance(0.3),
      kind,
      scheduledAt,
      sentAt: kind === 'sent' ? at : null,
      replyToId: null,
      createdAt: at,
      updatedAt: at,
    });

  // Sent (their ids are what guardian replies point to).
  const sent: MessageRow[] = [];
  for (let i = 0; i < MAILBOX_SIZES.sent + 1; i++) {
    const topic = topics.sent[i % topics.sent.length]!;
    const course = rng.pick(courses);
    const at = new Date(BASE - i * 26 * HOUR - rng.int(0, 50) * 60_000);
    const m = authored('sent', topic.title(course.name), topic.body(course.name), at, null);
    const label = addRecipients(m, false, course);
    if (topic.file) b.attach(m.id, fileFor(topic.file, m.title, user.name), institutionId, user.id);
    const trashed = i === MAILBOX_SIZES.sent; // the last one goes to the trash
    const deletedAt = new Date(BASE - 30 * HOUR);
    b.entry({
      userId: user.id,
      institutionId,
      messageId: m.id,
      folder: trashed ? 'trash' : 'sent',
      deletedFrom: trashed ? 'sent' : null,
      deletedAt: trashed ? deletedAt : null,
      readAt: null,
      sortAt: at,
      counterpart: label,
    });
    if (!trashed) sent.push(m);
  }

  // Inbox: guardians (some replying to a sent message) and colleagues.
  for (let i = 0; i < MAILBOX_SIZES.inbox + 1; i++) {
    const at = new Date(BASE - i * 17 * HOUR - rng.int(0, 40) * 60_000);
    let m: MessageRow;
    let senderName: string;
    let file: string | undefined;
    if (i % 5 === 4 && colleagues.length > 0) {
      const colleague = colleagues[(i * 7) % colleagues.length]!;
      const topic = topics.colleague[i % topics.colleague.length]!;
      senderName = fullName(colleague);
      file = topic.file;
      m = b.message({
        institutionId,
        authorUserId: colleague.userId ?? null,
        senderKind: 'funcionario',
        senderRefId: colleague.id,
        senderName,
        title: topic.title,
        content: topic.body,
        channels: ['app-mobile', 'e-mail'],
        allowReplies: true,
        copyToSender: false,
        kind: 'sent',
        scheduledAt: null,
        sentAt: at,
        replyToId: null,
        createdAt: at,
        updatedAt: at,
      });
      // A colleague who signs in (another demo user) finds it in Enviados, as a send files it.
      if (colleague.userId != null) {
        b.entry({
          userId: colleague.userId,
          institutionId,
          messageId: m.id,
          folder: 'sent',
          deletedFrom: null,
          deletedAt: null,
          readAt: null,
          sortAt: at,
          counterpart: user.name,
        });
      }
    } else {
      const course = rng.pick(courses);
      const { guardian, student } = rng.pick(view.guardiansByCourse.get(course.id)!);
      senderName = fullName(guardian);
      const original = i % 4 === 1 ? sent.find((s) => s.sentAt! < at) : undefined;
      const topic = topics.guardian[i % topics.guardian.length]!;
      const title = original ? `Re: ${original.title}` : topic.title(student, course.name);
      const content = original
        ? `Muchas gracias por la información. ${student} estará presente. Saludos, ${guardian.firstNames.split(' ')[0]}.`
        : topic.body(student, course.name, hello);
      file = original ? undefined : topic.file;
      m = b.message({
        institutionId,
        authorUserId: null,
        senderKind: 'apoderado',
        senderRefId: guardian.id,
        senderName,
        title,
        content,
        channels: ['app-mobile'],
        allowReplies: false,
        copyToSender: false,
        kind: 'sent',
        scheduledAt: null,
        sentAt: at,
        replyToId: original?.id ?? null,
        createdAt: at,
        updatedAt: at,
      });
    }
    if (file) b.attach(m.id, fileFor(file, m.title, senderName), institutionId, m.authorUserId ?? null);
    const unread = i < 6 || i % 7 === 3;
    b.out.recipients.push({
      messageId: m.id,
      recipientKind: 'funcionario',
      recipientRefId: meRef,
      displayName: user.name,
      groupKind: 'funcionario',
      groupLabel: user.name,
      status: unread ? 'received' : 'read',
    });
    const trashed = i === MAILBOX_SIZES.inbox;
    const deletedAt = new Date(BASE - 20 * HOUR);
    b.entry({
      userId: user.id,
      institutionId,
      messageId: m.id,
      folder: trashed ? 'trash' : 'inbox',
      deletedFrom: trashed ? 'inbox' : null,
      deletedAt: trashed ? deletedAt : null,
      readAt: unread ? null : new Date(at.getTime() + 2 * HOUR),
      sortAt: at,
      counterpart: senderName,
    });
  }

  // Scheduled (in the future) and drafts, plus one trashed draft.
  for (let i = 0; i < MAILBOX_SIZES.scheduled; i++) {
    const topic = topics.planned[i]!;
    const created = new Date(BASE - (i + 1) * 5 * HOUR);
    const scheduledAt = new Date(Date.UTC(2027, 2, 1 + i * 7, 11, 30));
    const m = authored('scheduled', topic.title, topic.body, created, scheduledAt);
    const label = addRecipients(m, true);
    b.entry({
      userId: user.id,
      institutionId,
      messageId: m.id,
      folder: 'scheduled',
      deletedFrom: null,
      deletedAt: null,
      readAt: null,
      sortAt: scheduledAt,
      counterpart: label,
    });
  }
  for (let i = 0; i < MAILBOX_SIZES.draft + 1; i++) {
    const topic = topics.planned[(i + 1) % topics.planned.length]!;
    const updated = new Date(BASE - i * 31 * HOUR - 3 * HOUR);
    const m = authored('draft', i === 0 ? '' : `${topic.title} (borrador)`, topic.body, updated, null);
    const label = i % 2 === 0 ? addRecipients(m, true) : recipientsLabel([]);
    const trashed = i === MAILBOX_SIZES.draft;
    const deletedAt = new Date(BASE - 10 * HOUR);
    b.entry({
      userId: user.id,
      institutionId,
      messageId: m.id,
      folder: trashed ? 'trash' : 'draft',
      deletedFrom: trashed ? 'draft' : null,
      deletedAt: trashed ? deletedAt : null,
      readAt: null,
      sortAt: updated,
      counterpart: label,
    });
  }
}

/** N guardian messages in one inbox, one every 10 minutes back from the demo "now", each from a guardian with the app. */
function addBulkInbox(b: Builder, user: SeedUserRow, view: SchoolView, count: number): void {
  const rng = mulberry32(0x42554c4b);
  const topics = MAIL_TOPICS[view.country];
  const hello = greetingFor(view, user);
  const families = view.courses.flatMap((course) => (view.guardiansByCourse.get(course.id) ?? []).map((family) => ({ course, ...family })));
  for (let i = 0; i < count; i++) {
    const at = new Date(BASE - 90 * 24 * HOUR - i * 10 * 60_000);
    const withApp = families.filter(({ guardian: g }) => g.appInstalledAt && g.appInstalledAt <= at);
    if (withApp.length === 0) break;
    const { course, guardian, student } = rng.pick(withApp);
    const topic = topics.guardian[i % topics.guardian.length]!;
    const senderName = fullName(guardian);
    const m = b.message({
      institutionId: user.institutionId,
      authorUserId: null,
      senderKind: 'apoderado',
      senderRefId: guardian.id,
      senderName,
      title: `${topic.title(student, course.name)} (#${i + 1})`,
      content: topic.body(student, course.name, hello),
      channels: ['app-mobile'],
      allowReplies: false,
      copyToSender: false,
      kind: 'sent',
      scheduledAt: null,
      sentAt: at,
      replyToId: null,
      createdAt: at,
      updatedAt: at,
    });
    b.entry({
      userId: user.id,
      institutionId: user.institutionId,
      messageId: m.id,
      folder: 'inbox',
      deletedFrom: null,
      deletedAt: null,
      readAt: i % 3 === 0 ? null : at,
      sortAt: at,
      counterpart: senderName,
    });
  }
}
