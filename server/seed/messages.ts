// Demo mailboxes: for the demo staff of every school, an inbox with guardian and colleague
// messages (some unread, some replies, some with attachments), sent messages to courses and guardians with
// reception states, scheduled messages, drafts and a few trashed ones. Deterministic like the rest of the
// seed: fixed dates and a seeded PRNG. `bulkInbox` adds N more inbox messages to administrador@sanandres.cl.
import type { RecipientPick } from '../../shared/compose-contract';
import type { AttachmentStore } from '../storage/attachments';
import { fold } from '../../shared/fold';
import { recipientsLabel } from '../messages/queries';
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

const GUARDIAN_TOPICS: { title: (s: string, c: string) => string; body: (s: string, c: string) => string; file?: string }[] = [
  {
    title: () => 'Justificativo de inasistencia',
    body: (s) =>
      `Estimada profesora: ${s} no asistió a clases ayer por un cuadro de fiebre. Adjunto el certificado médico. Quedo atenta a cualquier tarea pendiente. Saludos cordiales.`,
    file: 'Certificado médico.pdf',
  },
  {
    title: (_s, c) => `Consulta sobre la reunión de apoderados ${c}`,
    body: () => 'Buenas tardes, quería confirmar si la reunión será presencial o en línea, porque trabajo hasta las 18:00. Muchas gracias.',
  },
  {
    title: () => 'Autorización salida pedagógica al Museo de Historia Natural',
    body: (s) =>
      `Envío firmada la autorización para que ${s} participe en la salida pedagógica. Mi hijo es alérgico al maní; por favor consideren la colación.`,
    file: 'Autorización firmada.pdf',
  },
  {
    title: () => 'Retiro anticipado el viernes',
    body: (s) =>
      `Junto con saludar, informo que retiraré a ${s} a las 12:30 el viernes por un control médico. Lo pasará a buscar su abuela.`,
  },
  {
    title: () => 'Cambio de número de teléfono',
    body: () =>
      'Hola, les informo que cambié mi número de celular. Por favor actualicen la ficha para seguir recibiendo las comunicaciones del colegio.',
  },
  {
    title: () => 'Solicitud de entrevista con profesora jefe',
    body: (s) =>
      `Me gustaría agendar una entrevista para conversar sobre el rendimiento de ${s} en Matemática. Tengo disponibilidad los martes en la mañana.`,
  },
  {
    title: () => 'Uniforme y buzo institucional',
    body: () => '¿Dónde se puede comprar el buzo institucional? En la tienda del centro de padres no quedan tallas pequeñas. ¡Gracias!',
  },
  {
    title: () => 'Licencia médica',
    body: (s) => `Adjunto licencia médica de ${s} por cinco días. Agradeceré que me envíen las guías de estudio por correo electrónico.`,
    file: 'Licencia médica.pdf',
  },
];

const COLLEAGUE_TOPICS: { title: string; body: string; file?: string }[] = [
  {
    title: 'Consejo de profesores del jueves',
    body: 'Les recuerdo que el consejo de profesores será el jueves a las 16:00 en la biblioteca. Traer las notas del semestre.',
  },
  {
    title: 'Planificación de la semana de la ciencia',
    body: 'Adjunto la planificación preliminar de la semana de la ciencia. Por favor revisen los horarios de sus cursos.',
    file: 'Planificación semana de la ciencia.txt',
  },
  {
    title: 'Turnos de patio — diciembre',
    body: 'Comparto los turnos de patio para diciembre. Si necesitan un cambio, avísenme antes del lunes.',
  },
  {
    title: 'Actualización del reglamento de convivencia',
    body: 'La dirección aprobó la actualización del reglamento de convivencia escolar. Favor leerlo antes de la próxima reunión.',
  },
];

const SENT_TOPICS: { title: (c: string) => string; body: (c: string) => string; file?: string }[] = [
  {
    title: (c) => `Reunión de apoderados ${c}`,
    body: (c) =>
      `Estimados apoderados de ${c}: los invitamos a la reunión de apoderados el próximo miércoles a las 19:00 en la sala del curso. La asistencia es muy importante.`,
  },
  {
    title: () => 'Autorización salida pedagógica al Museo de Historia Natural',
    body: () =>
      'Les recordamos enviar firmada la autorización para la salida pedagógica al Museo de Historia Natural. Los estudiantes deben traer colación y agua.',
    file: 'Autorización salida pedagógica.pdf',
  },
  {
    title: () => 'Suspensión de clases por jornada de reflexión',
    body: () => 'Informamos que el viernes no habrá clases por la jornada de reflexión docente. El establecimiento permanecerá cerrado.',
  },
  {
    title: () => 'Campaña solidaria: útiles para la Teletón',
    body: () =>
      'Este mes realizaremos una campaña solidaria. Pueden enviar útiles escolares en buen estado hasta el día 28. ¡Muchas gracias por su compromiso!',
  },
  {
    title: (c) => `Calendario de evaluaciones ${c}`,
    body: (c) =>
      `Adjuntamos el calendario de evaluaciones de ${c} para el segundo semestre. Ante cualquier duda, contacten a la profesora jefe.`,
    file: 'Calendario de evaluaciones.txt',
  },
  {
    title: () => 'Vacunación escolar',
    body: () =>
      'El Centro de Salud Familiar realizará la vacunación escolar el martes. Si su pupilo no debe vacunarse, envíe el certificado correspondiente.',
  },
  {
    title: () => 'Recordatorio: pago del centro de padres',
    body: () => 'Recordamos que la cuota anual del centro de padres puede pagarse en secretaría o por transferencia.',
  },
  {
    title: () => 'Día del libro: disfraces de personajes',
    body: () => 'Para celebrar el día del libro, los niños y niñas pueden venir disfrazados de su personaje favorito. ¡Los esperamos!',
  },
];

const PLANNED_TOPICS = [
  {
    title: 'Ceremonia de licenciatura',
    body: 'Los invitamos a la ceremonia de licenciatura, que se realizará en el gimnasio del colegio. Cada familia puede traer dos invitados.',
  },
  {
    title: 'Inicio del año escolar 2027',
    body: 'Les damos la bienvenida al año escolar 2027. Las clases comienzan el miércoles 3 de marzo a las 8:00.',
  },
  {
    title: 'Lista de útiles escolares',
    body: 'Adjuntamos la lista de útiles para el próximo año. Recuerden marcar cada cuaderno con el nombre del estudiante.',
  },
  {
    title: 'Matrícula: documentos pendientes',
    body: 'Aún faltan documentos de matrícula. Por favor acérquense a secretaría de lunes a viernes, de 8:30 a 13:00.',
  },
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
  courses: CourseRow[];
  /** Titular guardians per course, with the name of their student. */
  guardiansByCourse: Map<number, { guardian: GuardianRow; student: string }[]>;
  staff: StaffRow[];
}

function schoolViews(data: SeedData): Map<number, SchoolView> {
  const views = new Map<number, SchoolView>();
  for (const inst of data.institutions) views.set(inst.id, { courses: [], guardiansByCourse: new Map(), staff: [] });
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
  readonly out: MessageSeed = { messages: [], recipients: [], attachments: [], entries: [], files: [] };

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

export function generateMessages(data: SeedData, options: { bulkInbox?: number } = {}): MessageSeed {
  const b = new Builder();
  const views = schoolViews(data);
  const usersByEmail = new Map(data.users.map((u) => [u.email, u]));
  MAILBOX_USERS.forEach((email, index) => {
    const user = usersByEmail.get(email);
    if (user) addMailbox(b, user, views.get(user.institutionId)!, mulberry32(0x4d41494c + index));
  });
  const bulkUser = usersByEmail.get(BULK_INBOX_USER);
  if (options.bulkInbox && bulkUser) addBulkInbox(b, bulkUser, views.get(bulkUser.institutionId)!, options.bulkInbox);
  return b.out;
}

function addMailbox(b: Builder, user: SeedUserRow, view: SchoolView, rng: Rng): void {
  const institutionId = user.institutionId;
  const me = view.staff.find((s) => s.userId === user.id);
  const meRef = me?.id ?? user.id;
  const colleagues = view.staff.filter((s) => s.userId !== user.id);
  const courses = view.courses.filter((c) => (view.guardiansByCourse.get(c.id)?.length ?? 0) > 0);

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
    const topic = SENT_TOPICS[i % SENT_TOPICS.length]!;
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
      const topic = COLLEAGUE_TOPICS[i % COLLEAGUE_TOPICS.length]!;
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
    } else {
      const course = rng.pick(courses);
      const { guardian, student } = rng.pick(view.guardiansByCourse.get(course.id)!);
      senderName = fullName(guardian);
      const original = i % 4 === 1 ? sent.find((s) => s.sentAt! < at) : undefined;
      const topic = GUARDIAN_TOPICS[i % GUARDIAN_TOPICS.length]!;
      const title = original ? `Re: ${original.title}` : topic.title(student, course.name);
      const content = original
        ? `Muchas gracias por la información. ${student} estará presente. Saludos, ${guardian.firstNames.split(' ')[0]}.`
        : topic.body(student, course.name);
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
    const topic = PLANNED_TOPICS[i]!;
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
    const topic = PLANNED_TOPICS[(i + 1) % PLANNED_TOPICS.length]!;
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

/** `--messages N`: N guardian messages in one inbox, one every 10 minutes back from the demo "now". */
function addBulkInbox(b: Builder, user: SeedUserRow, view: SchoolView, count: number): void {
  const rng = mulberry32(0x42554c4b);
  const courses = view.courses.filter((c) => (view.guardiansByCourse.get(c.id)?.length ?? 0) > 0);
  for (let i = 0; i < count; i++) {
    const course = rng.pick(courses);
    const { guardian, student } = rng.pick(view.guardiansByCourse.get(course.id)!);
    const topic = GUARDIAN_TOPICS[i % GUARDIAN_TOPICS.length]!;
    const at = new Date(BASE - 90 * 24 * HOUR - i * 10 * 60_000);
    const senderName = fullName(guardian);
    const m = b.message({
      institutionId: user.institutionId,
      authorUserId: null,
      senderKind: 'apoderado',
      senderRefId: guardian.id,
      senderName,
      title: `${topic.title(student, course.name)} (#${i + 1})`,
      content: topic.body(student, course.name),
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
