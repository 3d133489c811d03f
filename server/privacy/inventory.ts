// Everything Hermes holds about one person (decision 0265 maps every table to a section or says why it holds
// nothing of theirs): read section by section, scoped to the asker's school. Tables keyed by a phone number
// rather than by a school (opt-outs, inbound messages, login codes) are read by the person's phone: the
// number is theirs, and the rows say what was done with it.
import { sql, type SQL } from 'drizzle-orm';
import {
  PRIVACY_SECTIONS,
  type PrivacyBlockState,
  type PrivacyIdentity,
  type PrivacyInventory,
  type PrivacyKind,
  type PrivacyRow,
  type PrivacySection,
} from '../../shared/privacy-contract';
import type { Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { fullName } from '../people/person';

const TABLES = { apoderado: 'guardians', estudiante: 'students', funcionario: 'staff' } as const;

interface PersonRow {
  id: number;
  first_names: string;
  last_name_father: string;
  last_name_mother: string;
  dni: string | null;
  email: string | null;
  phone: string | null;
  birth_date: string | null;
  withdrawn_at: Date | string | null;
  user_id: number | null;
}

/** A value as JSON carries it: instants as ISO text, bigints and numeric text as numbers where drivers differ. */
function plain(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return value.join(', ');
  return JSON.stringify(value);
}

const plainRows = (rows: Record<string, unknown>[]): PrivacyRow[] =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, plain(value)])));

/** The person `kind` `id` of school `institutionId`, or null (another school's, or no one). */
export async function identityOf(
  db: Queryable,
  institutionId: number,
  kind: PrivacyKind,
  id: number,
): Promise<(PrivacyIdentity & { userId: number | null }) | null> {
  const table = sql.identifier(TABLES[kind]);
  const columns =
    kind === 'apoderado'
      ? sql`p.dni, p.email, p.phone, null::text as birth_date, null::timestamptz as withdrawn_at, null::int as user_id`
      : kind === 'estudiante'
        ? sql`p.dni, p.email, null::text as phone, p.birth_date::text as birth_date, p.withdrawn_at, null::int as user_id`
        : sql`null::text as dni, p.email, p.phone, null::text as birth_date, null::timestamptz as withdrawn_at, p.user_id`;
  const [row] = rowsOf<PersonRow>(
    await db.execute(sql`select p.id, p.first_names, p.last_name_father, p.last_name_mother, ${columns}
      from ${table} p where p.id = ${id} and p.institution_id = ${institutionId}`),
  );
  if (!row) return null;
  return {
    kind,
    id: Number(row.id),
    name: fullName(row),
    first_names: row.first_names,
    last_name_father: row.last_name_father,
    last_name_mother: row.last_name_mother,
    dni: row.dni,
    email: row.email,
    phone: row.phone,
    birth_date: row.birth_date,
    withdrawn_at: row.withdrawn_at === null ? null : new Date(row.withdrawn_at).toISOString(),
    userId: row.user_id === null ? null : Number(row.user_id),
  };
}

/** The queries of each section for this person; a section with no query holds nothing of theirs. */
function sectionQueries(inst: number, person: PrivacyIdentity & { userId: number | null }): Partial<Record<PrivacySection, SQL>> {
  const { kind, id, phone, userId } = person;
  const q: Partial<Record<PrivacySection, SQL>> = {};
  const recipientRows = sql`select mr.id from message_recipients mr join messages m on m.id = mr.message_id
    where mr.recipient_kind = ${kind} and mr.recipient_ref_id = ${id} and m.institution_id = ${inst}`;
  const written = (m: string) =>
    userId !== null
      ? sql`${sql.raw(m)}.institution_id = ${inst} and ((${sql.raw(m)}.sender_kind = ${kind} and ${sql.raw(m)}.sender_ref_id = ${id}) or ${sql.raw(m)}.author_user_id = ${userId})`
      : sql`${sql.raw(m)}.institution_id = ${inst} and ${sql.raw(m)}.sender_kind = ${kind} and ${sql.raw(m)}.sender_ref_id = ${id}`;

  q.contactos = sql`select ${kind} as tipo, ${person.email}::text as correo, ${phone}::text as telefono`;
  if (kind === 'estudiante') {
    q.cursos = sql`select e.school_year as ano, c.name as curso from enrolments e join courses c on c.id = e.course_id
      where e.student_id = ${id} and e.institution_id = ${inst}
      union all select null, c.name || ' (actual)' from students s join courses c on c.id = s.course_id where s.id = ${id}
      union all select null, el.name || ' (electivo)' from elective_students es join electives el on el.id = es.elective_id where es.student_id = ${id}
      order by 1 nulls last, 2`;
    q.vinculos = sql`select g.id as apoderado_id, concat_ws(' ', g.first_names, g.last_name_father, nullif(g.last_name_mother, '')) as nombre,
        case sg.role when 1 then 'titular' else 'suplente' end as rol, sg.relationship as parentesco
      from student_guardians sg join guardians g on g.id = sg.guardian_id where sg.student_id = ${id} order by sg.role`;
  }
  if (kind === 'apoderado') {
    q.vinculos = sql`select s.id as estudiante_id, concat_ws(' ', s.first_names, s.last_name_father, nullif(s.last_name_mother, '')) as nombre,
        c.name as curso, case sg.role when 1 then 'titular' else 'suplente' end as rol, sg.relationship as parentesco
      from student_guardians sg join students s on s.id = sg.student_id join courses c on c.id = s.course_id
      where sg.guardian_id = ${id} order by s.id`;
  }
  q.listas = sql`select l.id as lista_id, l.name as lista, l.shared as compartida, l.deleted_at as eliminada
    from recipient_list_members lm join recipient_lists l on l.id = lm.list_id
    where lm.member_kind = ${kind} and lm.member_ref_id = ${id} and l.institution_id = ${inst} order by l.id`;
  q.mensajes_recibidos = sql`select m.id as mensaje_id, m.sent_at as enviado, m.sender_name as remitente, m.title as asunto,
      m.content as texto, mr.group_label as grupo, mr.student_names as estudiantes, mr.status as estado, mr.reached_at as recibido
    from message_recipients mr join messages m on m.id = mr.message_id
    where mr.recipient_kind = ${kind} and mr.recipient_ref_id = ${id} and m.institution_id = ${inst}
    order by m.sent_at nulls last, m.id`;
  q.entregas = sql`select d.message_id as mensaje_id, d.channel as canal, d.address as direccion, d.status as estado, d.error,
      d.attempts as intentos, d.sent_at as enviado, d.delivered_at as entregado, d.read_at as leido
    from deliveries d where d.recipient_id in (${recipientRows}) order by d.message_id, d.channel`;
  q.mensajes_escritos = sql`select m.id as mensaje_id, m.kind as tipo, m.reply_to_id as responde_a, m.created_at as creado,
      m.sent_at as enviado, m.title as asunto, m.content as texto
    from messages m where ${written('m')} order by m.created_at, m.id`;
  q.adjuntos = sql`select a.id as adjunto_id, a.message_id as mensaje_id, a.name as nombre, a.content_type as tipo, a.size as bytes
    from message_attachments a join messages m on m.id = a.message_id where ${written('m')} order by a.id`;
  if (kind === 'apoderado') {
    // A number two schools' families share wrote to each: what became a message of another school only is
    // that school's. A text that became no school's message (an opt-out word) is the number's, so shown.
    q.mensajes_entrantes = sql`select i.id as entrante_id, i.channel as canal, i.received_at as recibido, i.body as texto,
        i.media_count as archivos, i.outcome as resultado
      from inbound_messages i
      where (i.phone = ${phone ?? ''} and (
          exists (select 1 from inbound_message_targets t where t.inbound_id = i.id and t.institution_id = ${inst})
          or not exists (select 1 from inbound_message_targets t where t.inbound_id = i.id and t.institution_id <> ${inst})))
        or i.id in (select t.inbound_id from inbound_message_targets t where t.guardian_id = ${id} and t.institution_id = ${inst})
      order by i.received_at, i.id`;
    q.sesiones_app = sql`select t.id as sesion_id, t.created_at as creada, t.last_used_at as ultimo_uso, t.expires_at as vence
      from app_tokens t where t.institution_id = ${inst}
        and ((t.person_kind = ${kind} and t.person_id = ${id}) or (t.person_kind = 'apoderado' and t.phone = ${phone ?? ''}))
      order by t.id`;
    q.codigos_acceso = sql`select c.created_at as creado, c.expires_at as vence, c.consumed_at as usado, c.attempts as intentos
      from app_login_codes c where c.phone = ${phone ?? ''} order by c.id`;
    q.dispositivos_push = sql`select p.id as dispositivo_id, p.user_agent as navegador, p.created_at as creado, p.last_seen_at as ultimo_uso
      from push_subscriptions p where p.guardian_id = ${id} and p.institution_id = ${inst} order by p.id`;
    q.silencios_push = sql`select m.student_id as estudiante_id from push_mutes m where m.guardian_id = ${id} and m.institution_id = ${inst}`;
    q.enlaces_app = sql`select l.first_sent_at as primer_envio, l.last_sent_at as ultimo_envio from app_install_links l where l.guardian_id = ${id}`;
    q.lectura_anual = sql`select a.school_year as ano, a.addressed as dirigidos, a.reached as recibidos, a.read as leidos
      from activity_guardians a where a.guardian_id = ${id} order by a.school_year`;
  }
  if (kind === 'estudiante') {
    q.sesiones_app = sql`select t.id as sesion_id, t.created_at as creada, t.last_used_at as ultimo_uso, t.expires_at as vence
      from app_tokens t where t.person_kind = ${kind} and t.person_id = ${id} and t.institution_id = ${inst} order by t.id`;
  }
  if (phone !== null) {
    q.bajas_canal = sql`select o.channel as canal, o.opted_out_at as desde from channel_opt_outs o where o.phone = ${phone}`;
    q.eventos_baja = sql`select e.channel as canal, e.kind as tipo, e.body as texto, e.at as fecha
      from channel_opt_out_events e where e.phone = ${phone} order by e.at, e.id`;
  }
  q.cambios_contacto = sql`select c.changed_at as fecha, c.field as campo, c.old_value as antes, c.new_value as despues,
      c.roster_import_id as importacion_id
    from contact_changes c where c.institution_id = ${inst} and c.person_kind = ${kind} and c.person_id = ${id} order by c.changed_at, c.id`;
  if (userId !== null) {
    q.cuenta = sql`select u.id as usuario_id, u.email as correo, u.name as nombre, u.status as estado, u.created_at as creada,
        u.last_sign_in_at as ultimo_ingreso, u.deactivated_at as desactivada
      from users u where u.id = ${userId} and u.institution_id = ${inst}`;
    q.roles = sql`select r.code as codigo, r.name as rol from user_roles r where r.user_id = ${userId} order by r.code`;
    q.sesiones = sql`select s.id as sesion_id, s.created_at as creada, s.refreshed_at as renovada, s.refresh_expires_at as vence,
        s.user_agent as navegador, s.ip from sessions s where s.user_id = ${userId} order by s.id`;
    q.cambios_cuenta = sql`select c.at as fecha, c.action as accion, c.actor_user_id as por_usuario_id
      from user_changes c where c.subject_user_id = ${userId} order by c.at, c.id`;
  }
  return q;
}

/** The whole inventory of a person found by `identityOf`. */
export async function inventoryOf(
  db: Queryable,
  institutionId: number,
  person: PrivacyIdentity & { userId: number | null },
  now = new Date(),
): Promise<PrivacyInventory> {
  const queries = sectionQueries(institutionId, person);
  const sections = {} as Record<PrivacySection, PrivacyRow[]>;
  for (const section of PRIVACY_SECTIONS) {
    const query = queries[section];
    sections[section] = query ? plainRows(rowsOf<Record<string, unknown>>(await db.execute(query))) : [];
  }
  const { userId: _userId, ...identity } = person;
  return { person: identity, ...(await answeredOf(db, person)), read_at: now.toISOString(), sections };
}

/** What was answered of the person's requests: their block (who asked, since when) and their erasure. */
async function answeredOf(db: Queryable, { kind, id }: PrivacyIdentity): Promise<Pick<PrivacyInventory, 'bloqueo' | 'eliminado_el'>> {
  const table = sql.identifier(TABLES[kind]);
  const [row] = rowsOf<{
    requested_by: PrivacyBlockState['solicitado_por'] | null;
    blocked_at: Date | string | null;
    erased_at: Date | string | null;
  }>(
    await db.execute(sql`select pb.requested_by, pb.blocked_at, p.erased_at from ${table} p
      left join person_blocks pb on pb.person_kind = ${kind} and pb.person_id = p.id where p.id = ${id}`),
  );
  const iso = (value: Date | string | null | undefined): string | null => (value == null ? null : new Date(value).toISOString());
  const blockedAt = iso(row?.blocked_at);
  return {
    bloqueo: row?.requested_by && blockedAt ? { solicitado_por: row.requested_by, bloqueado_el: blockedAt } : null,
    eliminado_el: iso(row?.erased_at),
  };
}
