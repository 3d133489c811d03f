// The demo mailboxes of the seed (server/seed/messages.ts): deterministic, every folder filled for the demo
// staff, and `--messages N` for benchmarks.
import { describe, expect, it } from 'vitest';
import { generateSeed } from '../../server/seed/generate';
import { BULK_INBOX_USER, MAILBOX_SIZES, MAILBOX_USERS } from '../../server/seed/messages';
import { fold } from '../../shared/fold';

describe('seeded mailboxes', () => {
  const data = generateSeed();
  const userId = (email: string) => data.users.find((u) => u.email === email)!.id;

  it('fills every folder of each demo mailbox user', () => {
    for (const email of MAILBOX_USERS) {
      const entries = data.mail.entries.filter((e) => e.userId === userId(email));
      const byFolder = Object.fromEntries(Object.keys(MAILBOX_SIZES).map((f) => [f, entries.filter((e) => e.folder === f).length]));
      // Enviados holds every message they sent but the one in the trash: the mailbox's and the school year's.
      const sent = data.mail.messages.filter((m) => m.kind === 'sent' && m.authorUserId === userId(email)).length;
      expect(byFolder, email).toEqual({ ...MAILBOX_SIZES, sent: sent - 1 });
      expect(sent - 1, email).toBeGreaterThan(MAILBOX_SIZES.sent);
      const inbox = entries.filter((e) => e.folder === 'inbox');
      expect(
        inbox.some((e) => e.readAt === null),
        email,
      ).toBe(true);
      expect(
        inbox.some((e) => e.readAt !== null),
        email,
      ).toBe(true);
    }
  });

  it('has realistic Spanish content, replies, attachments and future schedules', () => {
    const titles = data.mail.messages.map((m) => m.title);
    expect(titles).toContain('Justificativo de inasistencia');
    expect(titles).toContain('Autorización salida pedagógica al Museo de Historia Natural');
    expect(titles.some((t) => /^Reunión de apoderados \d° Básico [A-Z]$/.test(t))).toBe(true);
    expect(data.mail.messages.some((m) => m.replyToId !== null)).toBe(true);
    expect(data.mail.attachments.length).toBeGreaterThan(10);
    const files = new Map(data.mail.files!.map((f) => [f.key, f.content]));
    for (const a of data.mail.attachments) expect(a.size).toBe(files.get(a.storageKey!)!.length);
    for (const m of data.mail.messages) {
      expect(m.search).toBe(fold(`${m.title}\n${m.content}`));
      if (m.kind === 'scheduled') expect(m.scheduledAt!.getTime()).toBeGreaterThan(Date.UTC(2027, 0, 1));
    }
    expect(fold('Reunión de Apoderados — Ñuñoa')).toBe('reunion de apoderados — nunoa');
  });

  it('a guardian writes in the app only once they have it, as a real answer from the app requires', () => {
    const installed = new Map(data.guardians.map((g) => [g.id, g.appInstalledAt]));
    const fromTheApp = data.mail.messages.filter((m) => m.senderKind === 'apoderado');
    expect(fromTheApp.length).toBeGreaterThan(20);
    for (const m of fromTheApp) {
      expect(m.channels, m.title).toEqual(['app-mobile']);
      const since = installed.get(m.senderRefId);
      expect(since, `${m.senderName}: ${m.title}`).toBeTruthy();
      expect(new Date(since!).getTime(), `${m.senderName}: ${m.title}`).toBeLessThanOrEqual(m.sentAt!.getTime());
    }
  });

  it('titles a message for a course only when the message goes to that course (or a family of it)', () => {
    const courses = new Map(data.courses.map((c) => [c.id, c]));
    const studentCourse = new Map(data.students.map((s) => [s.id, s.courseId]));
    const childCourses = (guardianId: number) =>
      data.studentGuardians.filter((l) => l.guardianId === guardianId).map((l) => studentCourse.get(l.studentId));
    let titled = 0;
    for (const m of data.mail.messages) {
      if (m.senderKind !== 'funcionario' || !m.recipientPicks) continue;
      // The course a title names: the longest course name of the school the title ends with, after a space
      // ("Kínder A" is not "Pre-kínder A").
      const named = data.courses
        .filter((c) => c.institutionId === m.institutionId && m.title.endsWith(` ${c.name}`))
        .sort((a, b) => b.name.length - a.name.length)[0];
      if (!named) continue;
      titled++;
      const reaches = m.recipientPicks.some(
        (p) =>
          (p.kind === 'course' && p.id === named.id) ||
          (p.kind === 'level' && courses.get(named.id)!.levelId === p.id) ||
          (p.kind === 'guardian' && childCourses(p.id).includes(named.id)),
      );
      expect(reaches, `${m.id} «${m.title}» → ${m.recipientPicks.map((p) => p.label).join(', ')}`).toBe(true);
    }
    expect(titled).toBeGreaterThan(20);
  });

  it('is deterministic, and --messages adds that many inbox messages for the admin', () => {
    expect(JSON.stringify(generateSeed().mail)).toBe(JSON.stringify(data.mail));
    const big = generateSeed({ messages: 10_000 });
    const admin = big.users.find((u) => u.email === BULK_INBOX_USER)!.id;
    const inbox = big.mail.entries.filter((e) => e.userId === admin && e.folder === 'inbox');
    expect(inbox).toHaveLength(MAILBOX_SIZES.inbox + 10_000);
    expect(big.mail.messages).toHaveLength(data.mail.messages.length + 10_000);
  });
});
