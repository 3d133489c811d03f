// Erasure: the person is anonymised in place, so every id, count, dashboard and reception total stays right
// ("1 apoderado" on a message, not their name or phone). Their row keeps its id with a neutral label and no
// RUT, phone, e-mail or birth date; every copy of those elsewhere (recipient rows, folders, the picker's labels,
// contact history, imports, inbound texts, opt-outs, app and push sessions, the simulator's store…) is cleaned;
// what they wrote (messages, replies, attachments) is deleted. The activity roll-up is paused for the
// transaction and not rebuilt: the dashboards' aggregates keep what was sent and read, as retention does.
// One transaction; the attachments' files and the person's outbox files (decision 0286) go after it commits.
import { sql, type SQL } from 'drizzle-orm';
import { SCHOOL_ADMIN_ROLE } from '../../shared/codes';
import { ACCESS_POLICY } from '../../shared/contract';
import { fold } from '../../shared/fold';
import type { ErasureCounts, ErasureResult } from '../../shared/privacy-requests-contract';
import { type AuditActor, recordAudit } from '../audit/record';
import { intList, textList } from '../db/arrays';
import type { Db, Queryable } from '../db/client';
import { rowsOf } from '../db/sql';
import { pauseActivityRollup } from '../db/activity-rollup';
import { newsSearchText } from '../news/write';
import { templateValues } from '../templates/templates';
import type { AttachmentStore } from '../storage/attachments';
import { stopQueuedOf } from './blocks';
import { accountEmailFilesTo, emailFilesOf, removeFiles, simulatorFilesOf } from './outbox';
import { lockPerson, readPerson, type PersonRef, type PersonRow } from './person';
import { ERASED_LABELS, PRIVACY_REQUEST_MESSAGES } from './texts';

/**
 * What identified the person besides their row: a staff member's login name and e-mail (the people editor
 * never updates `users`, so they can differ from the staff row), and the phones, e-mails and RUTs their
 * contact history says they had before. Read before that history is emptied, so older copies go too.
 */
interface FormerIdentity {
  names: string[];
  dnis: string[];
  phones: string[];
  emails: string[];
}

async function formerIdentityOf(tx: Queryable, { institutionId, kind, id }: PersonRef, row: PersonRow): Promise<FormerIdentity> {
  const history = rowsOf<{ field: string; value: string }>(
    await tx.execute(sql`
      select c.field, v.value from contact_changes c
        cross join lateral (values (c.old_value), (c.new_value)) as v(value)
      where c.institution_id = ${institutionId} and c.person_kind = ${kind} and c.person_id = ${id}
        and c.field in ('email', 'fono_celular', 'dni') and v.value is not null
        -- A value someone else holds now (a phone moved to the right parent) is theirs, not this person's.
        and not exists (select 1 from guardians g where g.erased_at is null and not (${kind} = 'apoderado' and g.id = ${id})
          and (g.phone = v.value or g.email = v.value or g.dni = v.value))
        and not exists (select 1 from students s where s.erased_at is null and not (${kind} = 'estudiante' and s.id = ${id})
          and (s.email = v.value or s.dni = v.value))
        and not exists (select 1 from staff s where s.erased_at is null and not (${kind} = 'funcionario' and s.id = ${id})
          and (s.phone = v.value or s.email = v.value))`),
  );
  const of = (field: string) => history.filter((h) => h.field === field).map((h) => h.value.trim());
  const login =
    row.userId === null
      ? []
      : rowsOf<{ name: string; email: string }>(await tx.execute(sql`select name, email from users where id = ${row.userId}`));
  return {
    names: login.map((u) => u.name.trim()),
    dnis: of('dni'),
    phones: of('fono_celular'),
    emails: [...of('email'), ...login.map((u) => u.email)],
  };
}

/** The strings that identify the person, longest first (a full name before its shorter forms), and folded. */
function identifiersOf(row: PersonRow, former: FormerIdentity): { names: string[]; others: string[] } {
  const first = row.firstNames.trim();
  const firstWord = first.split(/\s+/)[0] ?? '';
  const father = row.lastNameFather.trim();
  const mother = row.lastNameMother.trim();
  const join = (...parts: string[]) => parts.filter((p) => p !== '').join(' ');
  const forms = [
    join(first, father, mother),
    join(firstWord, father, mother),
    join(first, father),
    join(firstWord, father),
    ...former.names,
  ];
  const names = [...new Set([...forms, ...forms.map(fold)].filter((n) => n.length >= 5))].sort((a, b) => b.length - a.length);
  const dnis = [row.dni, ...former.dnis].filter((v): v is string => v !== null);
  const phones = [row.phone, ...former.phones].filter((v): v is string => v !== null);
  const others = [
    ...dnis.flatMap((dni) => [dni, ...rutForms(dni)]),
    row.email,
    ...former.emails,
    ...phones.flatMap((phone) => [phone, ...nationalPhones(phone)]),
  ].filter((v): v is string => typeof v === 'string' && v.length >= 5);
  // Longest first here too: a phone's national form is part of its international one.
  return { names, others: [...new Set(others)].sort((a, b) => b.length - a.length) };
}

/** A RUT as people write it: with and without dots, with and without the dash. */
function rutForms(dni: string | null): string[] {
  const digits = dni?.replace(/[^0-9Kk]/g, '') ?? '';
  if (digits.length < 5) return [];
  const body = digits.slice(0, -1);
  const dotted = body.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return [`${dotted}-${digits.slice(-1)}`, `${body}-${digits.slice(-1)}`, digits];
}

/** A Chilean or Mexican mobile as written at home: "9 1234 5678", "912345678" (and the number without its +). */
function nationalPhones(phone: string): string[] {
  const cl = /^\+569(\d{4})(\d{4})$/.exec(phone);
  if (cl) return [`9 ${cl[1]} ${cl[2]}`, `9${cl[1]}${cl[2]}`, phone.slice(1)];
  const mx = /^\+521?(\d{2})(\d{4})(\d{4})$/.exec(phone);
  if (mx) return [`${mx[1]} ${mx[2]} ${mx[3]}`, `${mx[1]}${mx[2]}${mx[3]}`, phone.slice(1)];
  return [phone.slice(1)];
}

const escapeRegex = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** SQL of `column` (text) with every identifier replaced by `label`, in any letter case. */
function scrubbed(column: SQL, identifiers: readonly string[], label: string): SQL {
  return identifiers.reduce<SQL>((acc, id) => sql`regexp_replace(${acc}, ${escapeRegex(id)}, ${label}, 'gi')`, column);
}

/**
 * Messages the person wrote that go with them: a guardian's or student's replies; a staff member's drafts and
 * scheduled messages. What a staff member sent is the school's communication with its families (reception,
 * rankings and the month's figures read it live): it stays, signed with the neutral label.
 */
function writtenSql({ institutionId, kind, id }: PersonRef, userId: number | null): SQL {
  if (kind === 'funcionario') {
    return userId === null
      ? sql`select null::int as id where false`
      : sql`select m.id from messages m where m.institution_id = ${institutionId} and m.author_user_id = ${userId} and m.kind <> 'sent'`;
  }
  return sql`select m.id from messages m where m.institution_id = ${institutionId} and m.sender_kind = ${kind} and m.sender_ref_id = ${id}`;
}

/**
 * Whether someone else not erased, of any school, still has `phone`: what the deployment keeps by phone (sign-in
 * codes, app sessions opened with it, opt-outs, the simulator's store) then stays, since it is theirs too.
 */
function phoneShared(phone: string, { kind, id }: PersonRef): SQL {
  return sql`(exists (select 1 from guardians g where g.phone = ${phone} and g.erased_at is null and not (${kind} = 'apoderado' and g.id = ${id}))
    or exists (select 1 from staff s where s.phone = ${phone} and s.erased_at is null and not (${kind} = 'funcionario' and s.id = ${id})))`;
}

/** Their app sessions: their own, and those opened with their phone when no one else has it. */
function tokensWhere(person: PersonRef, phone: string | null): SQL {
  const own = sql`(t.person_kind = ${person.kind} and t.person_id = ${person.id})`;
  return phone === null ? own : sql`(${own} or (t.phone = ${phone} and not ${phoneShared(phone, person)}))`;
}

/**
 * Texts that arrived from their phone: only this school's link to them goes, and the text itself when no other
 * school's link to it remains (a guardian of two schools with one phone keeps the other school's inbox).
 */
function inboundWhere(person: PersonRef, phone: string): SQL {
  return sql`(i.phone = ${phone} and not exists (select 1 from inbound_message_targets x
    where x.inbound_id = i.id and x.institution_id <> ${person.institutionId}))`;
}

const personRecipients = ({ kind, id }: PersonRef): SQL =>
  sql`select r.id from message_recipients r where r.recipient_kind = ${kind} and r.recipient_ref_id = ${id}`;

async function countErasure(tx: Queryable, person: PersonRef, row: PersonRow): Promise<ErasureCounts> {
  const phone = row.phone;
  const result = await tx.execute(sql`
    select
      (select count(*) from (${writtenSql(person, row.userId)}) w)::int as mensajes_escritos,
      (select count(*) from message_attachments a where a.message_id in (${writtenSql(person, row.userId)})
        ${row.userId === null ? sql`` : sql`or (a.message_id is null and a.news_post_id is null and a.owner_user_id = ${row.userId})`})::int as adjuntos,
      (select count(*) from (${personRecipients(person)}) r)::int as mensajes_recibidos,
      (select count(*) from deliveries d where d.recipient_id in (${personRecipients(person)}))::int as entregas,
      ((select count(*) from app_tokens t where ${tokensWhere(person, phone)})
        + ${phone === null ? sql`0` : sql`(select count(*) from app_login_codes c where c.phone = ${phone} and not ${phoneShared(phone, person)})`}
        + (select count(*) from push_subscriptions s where ${person.kind} = 'apoderado' and s.guardian_id = ${person.id})
        + (select count(*) from sessions s where s.user_id = ${row.userId}))::int as sesiones,
      (select count(*) from contact_changes c where c.institution_id = ${person.institutionId}
        and c.person_kind = ${person.kind} and c.person_id = ${person.id})::int as historial_contacto,
      ${
        phone === null
          ? sql`0`
          : sql`((select count(*) from inbound_messages i where ${inboundWhere(person, phone)})
        + (select count(*) from channel_opt_out_events e where e.phone = ${phone} and not ${phoneShared(phone, person)}))`
      }::int as mensajes_entrantes,
      (select count(*) from recipient_list_members m where m.member_kind = ${person.kind} and m.member_ref_id = ${person.id})::int as listas`);
  const counts = rowsOf<Record<keyof ErasureCounts, number>>(result)[0]!;
  return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)])) as unknown as ErasureCounts;
}

/** Why erasing a staff member's login is refused, as staff deactivation refuses it (server/staff/accounts.ts). */
type ErasureObstacle = { code: 'privacy.self' | 'staff.last_admin'; message: string };

/**
 * Erasing oneself, or the school's last active administrator, would leave the school without anyone to run it
 * (the login is deactivated): refused. `lock` holds the school's staff changes back (and the users row) until
 * the erasure commits, as a deactivation does.
 */
async function obstacleOf(
  tx: Queryable,
  person: PersonRef,
  row: PersonRow,
  actorUserId: number | null,
  lock: boolean,
): Promise<ErasureObstacle | null> {
  if (row.userId === null) return null;
  if (row.userId === actorUserId) return { code: 'privacy.self', message: PRIVACY_REQUEST_MESSAGES.self };
  if (lock) {
    await tx.execute(sql`select id from institutions where id = ${person.institutionId} for update`);
    await tx.execute(sql`select id from users where id = ${row.userId} for update`);
  }
  const found = rowsOf<{ last: boolean }>(
    await tx.execute(sql`
      select (u.status = 'active' and exists (select 1 from user_roles r where r.user_id = u.id and r.code = ${SCHOOL_ADMIN_ROLE}))
        and not exists (select 1 from users o
          join user_roles r on r.user_id = o.id and r.code = ${SCHOOL_ADMIN_ROLE}
          join user_policies p on p.user_id = o.id and p.name = ${ACCESS_POLICY}
          where o.institution_id = ${person.institutionId} and o.status = 'active' and o.id <> u.id) as last
      from users u where u.id = ${row.userId}`),
  )[0];
  return found?.last === true ? { code: 'staff.last_admin', message: PRIVACY_REQUEST_MESSAGES.lastAdmin } : null;
}

export type PreviewOutcome =
  | { ok: true; counts: ErasureCounts; obstacle: ErasureObstacle | null }
  | { ok: false; reason: 'not_found' | 'erased' };

/** What an erasure would remove: a plain read, nothing locked. */
export async function previewErasure(db: Db, actor: AuditActor, person: PersonRef): Promise<PreviewOutcome> {
  const row = await readPerson(db, person, false);
  if (!row) return { ok: false, reason: 'not_found' };
  if (row.erased) return { ok: false, reason: 'erased' };
  return { ok: true, counts: await countErasure(db, person, row), obstacle: await obstacleOf(db, person, row, actor.actorUserId, false) };
}

export type ErasureOutcome =
  | { ok: true; result: ErasureResult }
  | { ok: false; reason: 'not_found' | 'erased' }
  | { ok: false; reason: 'refused'; obstacle: ErasureObstacle };

/** Where the person's files are: the attachments' store, and the outbox directory (HERMES_OUTBOX_DIR). */
export interface ErasureFiles {
  store: AttachmentStore;
  outboxDir: string;
}

export async function erasePerson(db: Db, files: ErasureFiles, actor: AuditActor, person: PersonRef): Promise<ErasureOutcome> {
  const outcome = await db.transaction(async (tx) => {
    const row = await lockPerson(tx, person);
    if (!row) return { ok: false as const, reason: 'not_found' as const };
    if (row.erased) return { ok: false as const, reason: 'erased' as const };
    const obstacle = await obstacleOf(tx, person, row, actor.actorUserId, true);
    if (obstacle) return { ok: false as const, reason: 'refused' as const, obstacle };
    const counts = await countErasure(tx, person, row);
    // Whatever is still on its way to them stops first, with its quota back (as a block does).
    await stopQueuedOf(tx, person.kind, person.id);
    await pauseActivityRollup(tx);
    const keys = await deleteWritten(tx, person, row);
    const emails = await emailFilesOf(tx, files.outboxDir, personRecipients(person));
    const logins = row.userId === null ? [] : await loginEmailsOf(tx, row);
    const simulated = await anonymise(tx, person, row);
    const erasedAt = new Date();
    await recordAudit(tx, actor, { action: 'person.erased', subject: { kind: person.kind, id: person.id }, detail: { ...counts } });
    const outbox = [...emails, ...simulatorFilesOf(files.outboxDir, simulated)];
    return {
      ok: true as const,
      keys,
      outbox,
      logins,
      result: { tipo: person.kind, id: person.id, conteos: counts, eliminado_el: erasedAt.toISOString() },
    };
  });
  if (!outcome.ok) return outcome;
  // After the commit: a file removed for a rolled-back erasure could not come back.
  await files.store.remove(outcome.keys);
  const accountEmails = await Promise.all(outcome.logins.map((email) => accountEmailFilesTo(files.outboxDir, email)));
  await removeFiles([...outcome.outbox, ...accountEmails.flat()]);
  return { ok: true, result: outcome.result };
}

/** Deletes what the person wrote (with its recipients, deliveries, folders and attachments); returns the files' keys. */
async function deleteWritten(tx: Queryable, person: PersonRef, row: PersonRow): Promise<string[]> {
  const ids = rowsOf<{ id: number }>(await tx.execute(writtenSql(person, row.userId))).map((r) => Number(r.id));
  const keys = rowsOf<{ storage_key: string }>(
    await tx.execute(sql`
      delete from message_attachments a
      where a.message_id = any(${intList(ids)}::int[])
        ${row.userId === null ? sql`` : sql`or (a.message_id is null and a.news_post_id is null and a.owner_user_id = ${row.userId})`}
      returning a.storage_key`),
  )
    .map((r) => r.storage_key)
    .filter((k): k is string => k !== null);
  if (ids.length > 0) {
    await tx.execute(sql`delete from messages where id = any(${intList(ids)}::int[])`);
  }
  return keys;
}

/** A staff member's e-mails as their account e-mails were addressed: the login's and the staff row's. */
async function loginEmailsOf(tx: Queryable, row: PersonRow): Promise<string[]> {
  const login = rowsOf<{ email: string }>(await tx.execute(sql`select email from users where id = ${row.userId}`));
  return [...new Set([...login.map((u) => u.email), ...(row.email === null ? [] : [row.email])])];
}

/** Anonymises the person in the database; returns the ids of the simulator's messages to them that went. */
async function anonymise(tx: Queryable, person: PersonRef, row: PersonRow): Promise<string[]> {
  const { institutionId, kind, id } = person;
  const label = ERASED_LABELS[row.country][kind];
  const folded = fold(label);
  const { names, others } = identifiersOf(row, await formerIdentityOf(tx, person, row));
  const all = [...names, ...others];
  const patterns = textList(all.map((v) => `%${v}%`));
  const phone = row.phone;

  // Their own recipient rows: the label, no children named, no address on the deliveries.
  await tx.execute(sql`
    update message_recipients r set display_name = ${label}, student_names = null
    where r.recipient_kind = ${kind} and r.recipient_ref_id = ${id}`);
  await tx.execute(sql`
    update deliveries d set address = null
    where d.recipient_id in (${personRecipients(person)}) and d.channel in ('e-mail', 'sms', 'whatsapp') and d.address is not null`);

  if (all.length > 0) {
    // Copies of their name in the school's other rows: group labels, children's names, folders, the picker's
    // chips, the stored search text.
    await tx.execute(sql`
      update message_recipients r set group_label = ${scrubbed(sql`r.group_label`, all, label)},
        student_names = ${scrubbed(sql`r.student_names`, all, label)}
      from messages m where m.id = r.message_id and m.institution_id = ${institutionId}
        and (r.group_label ilike any(${patterns}::text[]) or r.student_names ilike any(${patterns}::text[]))`);
    await tx.execute(sql`
      update messages m set sender_name = ${scrubbed(sql`m.sender_name`, all, label)},
        title = ${scrubbed(sql`m.title`, all, label)}, content = ${scrubbed(sql`m.content`, all, label)},
        signature = ${scrubbed(sql`m.signature`, all, label)},
        search = ${scrubbed(sql`m.search`, all, folded)},
        recipient_picks = (${scrubbed(sql`m.recipient_picks::text`, all, label)})::jsonb
      where m.institution_id = ${institutionId}
        and (m.sender_name ilike any(${patterns}::text[]) or m.search ilike any(${patterns}::text[])
          or m.title ilike any(${patterns}::text[]) or m.content ilike any(${patterns}::text[])
          or m.signature ilike any(${patterns}::text[])
          or m.recipient_picks::text ilike any(${patterns}::text[]))`);
    await tx.execute(sql`
      update mailbox_entries e set counterpart = ${scrubbed(sql`e.counterpart`, all, label)},
        counterpart_search = ${scrubbed(sql`e.counterpart_search`, all, folded)}
      where e.institution_id = ${institutionId}
        and (e.counterpart ilike any(${patterns}::text[]) or e.counterpart_search ilike any(${patterns}::text[]))`);
    await tx.execute(sql`
      update user_changes c set detail = (${scrubbed(sql`c.detail::text`, all, label)})::jsonb
      where c.institution_id = ${institutionId} and c.detail::text ilike any(${patterns}::text[])`);
    // Sign-in throttling keys may hold the e-mail or phone they typed.
    await tx.execute(sql`delete from rate_limit_hits h where h.key ilike any(${patterns}::text[])`);
    await scrubSchoolTexts(tx, institutionId, all, label);
  }

  if (kind !== 'funcionario') await clearImports(tx, person, row, all);

  // Their contact history keeps who changed which field when, not the values.
  await tx.execute(sql`
    update contact_changes c set old_value = null, new_value = null
    where c.institution_id = ${institutionId} and c.person_kind = ${kind} and c.person_id = ${id}`);
  await tx.execute(sql`delete from recipient_list_members m where m.member_kind = ${kind} and m.member_ref_id = ${id}`);

  // Their app: sessions, devices, login codes and what arrived from their phone.
  await tx.execute(sql`delete from app_tokens t where ${tokensWhere(person, phone)}`);
  if (kind === 'apoderado') {
    await tx.execute(sql`delete from push_subscriptions s where s.guardian_id = ${id}`);
    await tx.execute(sql`delete from push_mutes s where s.guardian_id = ${id}`);
  }
  if (phone !== null) {
    const shared = phoneShared(phone, person);
    await tx.execute(sql`delete from app_login_codes c where c.phone = ${phone} and not ${shared}`);
    await tx.execute(sql`delete from inbound_messages i where ${inboundWhere(person, phone)}`);
    await tx.execute(sql`
      delete from inbound_message_targets x using inbound_messages i
      where x.inbound_id = i.id and i.phone = ${phone} and x.institution_id = ${institutionId}`);
    // The deployment's opt-outs are by phone: kept while someone else not erased still has that phone.
    await tx.execute(sql`delete from channel_opt_outs o where o.phone = ${phone} and not ${shared}`);
    await tx.execute(sql`delete from channel_opt_out_events e where e.phone = ${phone} and not ${shared}`);
  }
  const addresses = [phone, row.email].filter((v): v is string => v !== null);
  const sharedPhone = phone === null ? sql`false` : phoneShared(phone, person);
  const simulated =
    addresses.length === 0
      ? []
      : rowsOf<{ id: string }>(
          await tx.execute(sql`delete from provider_sim_messages p where p.to = any(${textList(addresses)}::text[])
            and not (p.to = ${phone} and ${sharedPhone}) returning p.id`),
        ).map((r) => r.id);

  // The row itself, in place.
  if (kind === 'apoderado') {
    await tx.execute(sql`
      update guardians set first_names = ${label}, last_name_father = '', last_name_mother = '', dni = null,
        document_type = null, email = null, phone = null, sms_phone = null, sms_ok = false, erased_at = now()
      where id = ${id}`);
  } else if (kind === 'estudiante') {
    await tx.execute(sql`
      update students set first_names = ${label}, last_name_father = '', last_name_mother = '', dni = null,
        document_type = null, email = null, birth_date = null, erased_at = now()
      where id = ${id}`);
  } else {
    await tx.execute(sql`
      update staff set first_names = ${label}, last_name_father = '', last_name_mother = '', email = null, phone = null,
        erased_at = now()
      where id = ${id}`);
    if (row.userId !== null) {
      await tx.execute(sql`update messages set sender_name = ${label} where author_user_id = ${row.userId}`);
      await eraseUser(tx, row.userId, label);
    }
  }
  // A block has nothing left to stop: an erased person is never written to (blockedSql).
  await tx.execute(sql`delete from person_blocks where person_kind = ${kind} and person_id = ${id}`);
  return simulated;
}

/**
 * What the school's staff wrote about them outside messages: news posts, their own templates, list names, the
 * names of files attached to anyone's message or post, and texts other phones sent this school. Their names,
 * RUT, phone and e-mail become the label; a post's or template's folded columns are recomputed from the new
 * text as their writers compute them. Another school's rows are not this erasure's to change.
 */
async function scrubSchoolTexts(tx: Queryable, institutionId: number, identifiers: readonly string[], label: string): Promise<void> {
  const patterns = textList(identifiers.map((v) => `%${v}%`));
  const matches = (column: SQL) => sql`${column} ilike any(${patterns}::text[])`;

  const posts = rowsOf<{ id: number; title: string; body: string }>(
    await tx.execute(sql`
      update news_posts p set title = ${scrubbed(sql`p.title`, identifiers, label)}, body = ${scrubbed(sql`p.body`, identifiers, label)}
      where p.institution_id = ${institutionId} and (${matches(sql`p.title`)} or ${matches(sql`p.body`)} or ${matches(sql`p.search`)})
      returning p.id, p.title, p.body`),
  );
  for (const post of posts) {
    await tx.execute(sql`update news_posts set search = ${newsSearchText(post.title, post.body)} where id = ${post.id}`);
  }

  // A template's name is unique per owner by its folded form: a scrubbed name that meets another is numbered.
  const own = rowsOf<{ id: number; owner_user_id: number; name: string; content: string }>(
    await tx.execute(sql`
      select t.id, t.owner_user_id, ${scrubbed(sql`t.name`, identifiers, label)} as name, ${scrubbed(sql`t.content`, identifiers, label)} as content
      from templates t
      where t.institution_id = ${institutionId} and (${matches(sql`t.name`)} or ${matches(sql`t.content`)} or ${matches(sql`t.search`)})
      order by t.id`),
  );
  if (own.length > 0) {
    const taken = new Set(
      rowsOf<{ owner_user_id: number; name_key: string }>(
        await tx.execute(sql`select owner_user_id, name_key from templates
          where owner_user_id = any(${intList(own.map((t) => Number(t.owner_user_id)))}::int[])
            and id <> all(${intList(own.map((t) => Number(t.id)))}::int[])`),
      ).map((t) => `${t.owner_user_id}|${t.name_key}`),
    );
    // Out of the way first, so no row meets another's old key on its way to its new one.
    await tx.execute(sql`update templates set name_key = 'erasure-' || id where id = any(${intList(own.map((t) => Number(t.id)))}::int[])`);
    for (const template of own) {
      let name = template.name;
      for (let n = 2; taken.has(`${template.owner_user_id}|${fold(name)}`); n++) name = `${template.name} (${n})`;
      taken.add(`${template.owner_user_id}|${fold(name)}`);
      const values = templateValues(
        'mis-plantillas',
        { name, content: template.content },
        { userId: template.owner_user_id, institutionId },
      );
      await tx.execute(sql`update templates set name = ${values.name}, name_key = ${values.nameKey}, content = ${values.content},
        search = ${values.search} where id = ${template.id}`);
    }
  }

  await tx.execute(sql`
    update recipient_lists l set name = ${scrubbed(sql`l.name`, identifiers, label)}
    where l.institution_id = ${institutionId} and ${matches(sql`l.name`)}`);
  await tx.execute(sql`
    update message_attachments a set name = ${scrubbed(sql`a.name`, identifiers, label)}
    where ${matches(sql`a.name`)} and (a.institution_id = ${institutionId}
      or a.message_id in (select m.id from messages m where m.institution_id = ${institutionId})
      or a.news_post_id in (select p.id from news_posts p where p.institution_id = ${institutionId}))`);
  // A text from another phone reaches the school through its targets; only those texts are the school's.
  await tx.execute(sql`
    update inbound_messages i set body = ${scrubbed(sql`i.body`, identifiers, label)}
    where ${matches(sql`i.body`)}
      and exists (select 1 from inbound_message_targets x where x.inbound_id = i.id and x.institution_id = ${institutionId})`);
}

/**
 * The imports that touch them (planned for them by id, a line with their RUT in any spelling, their surnames or
 * another identifier) keep their counts only: the files' lines, refused lines and planned people go, since they
 * hold names field by field, birth dates and documents as typed. A previewed one is discarded: its plan is gone.
 */
async function clearImports(tx: Queryable, person: PersonRef, row: PersonRow, identifiers: readonly string[]): Promise<void> {
  const digits = row.dni === null ? '' : row.dni.replace(/[^0-9Kk]/g, '').toLowerCase();
  const whole = sql`(i.rows::text || i.problems::text || i.people::text)`;
  const bySurnames =
    row.lastNameFather.trim() === ''
      ? sql`false`
      : sql`jsonb_path_exists(i.rows, '$[*].* ? (@.last_name_father == $p && @.last_name_mother == $m)',
          jsonb_build_object('p', ${row.lastNameFather}::text, 'm', ${row.lastNameMother}::text))`;
  await tx.execute(sql`
    update roster_imports i set rows = '[]'::jsonb, problems = '[]'::jsonb, people = '[]'::jsonb,
      state = case when i.state = 'previewed' then 'discarded' else i.state end
    where i.institution_id = ${person.institutionId} and (
      i.people @> jsonb_build_array(jsonb_build_object('kind', ${person.kind === 'apoderado' ? 'guardian' : 'student'}::text, 'id', ${person.id}::int))
      or (${digits.length >= 5} and lower(regexp_replace(${whole}, '[^0-9Kk]', '', 'g')) like ${`%${digits}%`})
      or ${bySurnames}
      or ${whole} ilike any(${textList(identifiers.map((v) => `%${v}%`))}::text[]))`);
}

/** The staff member's login: no e-mail (a unique placeholder), no password, no sessions, deactivated. */
async function eraseUser(tx: Queryable, userId: number, label: string): Promise<void> {
  await tx.execute(sql`
    update users set email = 'eliminado-' || id || '@eliminado.invalid', password_hash = null, name = ${label},
      status = 'deactivated', deactivated_at = coalesce(deactivated_at, now())
    where id = ${userId}`);
  await tx.execute(sql`delete from sessions where user_id = ${userId}`);
  await tx.execute(sql`delete from password_resets where user_id = ${userId}`);
  await tx.execute(sql`delete from invitations where user_id = ${userId}`);
}
