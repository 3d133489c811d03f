// The school's SMS signature (`/institutions-signatures`): a 3–4 character sigla appended to every message
// when active (README "Signature"). Reads and the update are scoped to the school, so another school's
// signature id is simply not found.
import { and, asc, eq } from 'drizzle-orm';
import type { Signature } from '../../shared/compose-contract';
import { smsText } from '../../shared/sms-text';
import type { Queryable } from '../db/client';
import { institutionSignatures } from '../db/schema/compose';
import type { FieldErrors } from './validate';

export const SIGNATURE_MIN = 3;
export const SIGNATURE_MAX = 4;

export const SIGNATURE_MESSAGES = {
  length: `La firma debe tener entre ${SIGNATURE_MIN} y ${SIGNATURE_MAX} caracteres.`,
  characters: 'La firma solo puede tener letras, números y signos que se puedan enviar por SMS, sin espacios.',
  isActive: 'El estado de la firma debe ser 1 (activa) o 0 (inactiva).',
  forbidden: 'No tienes permiso para modificar la firma de la institución.',
} as const;

export interface SignatureChange {
  signature: string;
  isActive: boolean;
}

/** A PATCH body `{ signature, is_active }` as a change, or the per-field errors. */
export function parseSignatureChange(
  body: unknown,
): { ok: true; value: SignatureChange } | { ok: false; errors: FieldErrors } {
  const { signature, is_active: isActive } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const text = typeof signature === 'string' ? signature.trim() : '';
  // Counted in characters as people see them, not UTF-16 units.
  const length = [...text].length;
  if (length < SIGNATURE_MIN || length > SIGNATURE_MAX) errors.signature = [SIGNATURE_MESSAGES.length];
  else if (smsText(text, null).unsupported.length > 0 || /\s/.test(text)) errors.signature = [SIGNATURE_MESSAGES.characters];
  if (![0, 1, true, false].includes(isActive as number | boolean)) errors.is_active = [SIGNATURE_MESSAGES.isActive];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { signature: text, isActive: isActive === 1 || isActive === true } };
}

const toSignature = (row: typeof institutionSignatures.$inferSelect): Signature => ({
  id: row.id,
  device: row.device,
  domain: row.domain,
  institution_id: row.institutionId,
  is_active: row.isActive,
  signature: row.signature,
});

export async function listSignatures(db: Queryable, institutionId: number): Promise<Signature[]> {
  const rows = await db
    .select()
    .from(institutionSignatures)
    .where(eq(institutionSignatures.institutionId, institutionId))
    .orderBy(asc(institutionSignatures.id));
  return rows.map(toSignature);
}

/** Updates the school's signature; null when the id is not this school's. */
export async function updateSignature(
  db: Queryable,
  institutionId: number,
  id: number,
  change: SignatureChange,
): Promise<Signature | null> {
  const [row] = await db
    .update(institutionSignatures)
    .set({ signature: change.signature, isActive: change.isActive })
    .where(and(eq(institutionSignatures.id, id), eq(institutionSignatures.institutionId, institutionId)))
    .returning();
  return row ? toSignature(row) : null;
}
