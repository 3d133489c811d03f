// «Solicitar corrección»: someone who may not change a person's contact data (decision 0135) asks the school's
// leadership to, as a message from them to every leader with a login (their inbox), sent the way compose
// sends (server/compose/send.ts: one transaction, the quota, the Sent folder). The record itself is untouched.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ChannelCode } from '../../shared/codes';
import { formatPhone } from '../../shared/phone-format';
import { PEOPLE_EDITORS } from '../../shared/person-rules';
import type { Db } from '../db/client';
import { rowsOf } from '../db/sql';
import type { FieldErrors } from '../http/field-errors';
import { allowedChannels } from '../compose/channels';
import { sendMessage } from '../compose/send';
import { QUOTA_REFUSAL } from '../quota/balance';
import { readPerson, schoolCountry } from './members';
import type { ListScope } from './queries';

const CORRECTION_NOTE_MAX = 1000;

const CORRECTION_MESSAGES = {
  note: 'Escribe qué dato hay que corregir.',
  noteLong: `La solicitud puede tener hasta ${CORRECTION_NOTE_MAX} caracteres.`,
  nobody: { CL: 'El colegio no tiene a quién enviarle la solicitud.', MX: 'La escuela no tiene a quién enviarle la solicitud.' },
  sent: {
    CL: 'Solicitud enviada a la dirección y la administración del colegio.',
    MX: 'Solicitud enviada a la dirección y la administración de la escuela.',
  },
  title: (name: string) => `Corrección de datos de contacto: ${name}`,
} as const;

export type CorrectionOutcome =
  | { kind: 'sent'; messageId: number; message: string }
  | { kind: 'not_found' }
  | { kind: 'invalid'; errors: FieldErrors };

/** The note as the body carries it, or its field error. */
export function parseCorrectionNote(body: unknown): { ok: true; note: string } | { ok: false; errors: FieldErrors } {
  const raw = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).note : undefined;
  const note = typeof raw === 'string' ? raw.trim() : '';
  if (note === '') return { ok: false, errors: { note: [CORRECTION_MESSAGES.note] } };
  if (note.length > CORRECTION_NOTE_MAX) return { ok: false, errors: { note: [CORRECTION_MESSAGES.noteLong] } };
  return { ok: true, note };
}

export async function requestCorrection(
  db: Db,
  scope: ListScope,
  listId: number,
  memberId: number,
  note: string,
): Promise<CorrectionOutcome> {
  const person = await readPerson(db, scope, listId, memberId, false);
  if (!person) return { kind: 'not_found' };
  const country = await schoolCountry(db, scope.institutionId);
  // The leaders who sign in: staff rows with a login holding one of the editors' roles, not the asker.
  const leaders = rowsOf<{ id: number }>(
    await db.execute(sql`
      select distinct st.id from staff st join user_roles r on r.user_id = st.user_id
      where st.institution_id = ${scope.institutionId} and st.user_id <> ${scope.userId}
        and r.code in (${sql.join(
          PEOPLE_EDITORS.map((code) => sql`${code}`),
          sql`, `,
        )})
      order by st.id`),
  );
  if (leaders.length === 0) return { kind: 'invalid', errors: { note: [CORRECTION_MESSAGES.nobody[country]] } };
  // Their inbox is what matters; the app when the asker may use it, else e-mail.
  const allowed = await allowedChannels(db, scope.institutionId, scope.userId);
  const channels: ChannelCode[] = allowed.has('app-mobile') ? ['app-mobile'] : allowed.has('e-mail') ? ['e-mail'] : [];
  const record = [
    `Nombre: ${person.name}`,
    `Celular: ${person.fono_celular ? formatPhone(person.fono_celular) : '—'}`,
    `Correo: ${person.email ?? '—'}`,
  ].join('\n');
  const outcome = await sendMessage(db, {
    userId: scope.userId,
    institutionId: scope.institutionId,
    mode: 'send',
    idempotencyKey: randomUUID(),
    parsed: {
      draftId: null,
      replyToId: null,
      input: {
        title: CORRECTION_MESSAGES.title(person.name),
        content: `${note}\n\nDatos registrados hoy:\n${record}`,
        channels,
        recipients: leaders.map((leader) => ({ kind: 'staff' as const, id: Number(leader.id) })),
        attachment_ids: [],
        allow_replies: true,
        copy_to_sender: false,
        scheduled_at: null,
      },
    },
  });
  if (outcome.kind === 'created' || outcome.kind === 'replayed')
    return { kind: 'sent', messageId: outcome.result.id, message: CORRECTION_MESSAGES.sent[country] };
  if (outcome.kind === 'invalid') return { kind: 'invalid', errors: { note: Object.values(outcome.errors).flat() } };
  if (outcome.kind === 'quota') return { kind: 'invalid', errors: { note: [QUOTA_REFUSAL] } };
  return { kind: 'invalid', errors: { note: [CORRECTION_MESSAGES.nobody[country]] } };
}
