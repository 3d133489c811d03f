// The school's SMS signature (`/institutions-signatures`, a settings screen): a 3–4 character sigla appended
// to every message when active (docs/decisions/0103-signature-is-a-sigla.md), which compose asks for
// (`activeSignature`). Reads and the update are scoped to the school, so another school's signature id is
// simply not found.
import { recordAudit, type AuditActor } from '../audit/record';
import { and, asc, eq } from 'drizzle-orm';
import type { Signature } from '../../shared/signature-contract';
import { SIGNATURE_MESSAGES, signatureError, signatureText } from '../../shared/signature-rules';
import type { Queryable } from '../db/client';
import { institutionSignatures } from '../db/schema/compose';
import { type FieldErrors, hasFieldErrors } from '../http/field-errors';

export interface SignatureChange {
  signature: string;
  isActive: boolean;
}

/** A PATCH body `{ signature, is_active }` as a change, or the per-field errors. */
export function parseSignatureChange(body: unknown): { ok: true; value: SignatureChange } | { ok: false; errors: FieldErrors } {
  const { signature, is_active: isActive } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const text = typeof signature === 'string' ? signatureText(signature) : '';
  const error = signatureError(text);
  if (error !== null) errors.signature = [error];
  if (![0, 1, true, false].includes(isActive as number | boolean)) errors.is_active = [SIGNATURE_MESSAGES.isActive];
  if (hasFieldErrors(errors)) return { ok: false, errors };
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

/** The active signature text, or null. */
export async function activeSignature(db: Queryable, institutionId: number): Promise<string | null> {
  const [row] = await db
    .select({ signature: institutionSignatures.signature })
    .from(institutionSignatures)
    .where(and(eq(institutionSignatures.institutionId, institutionId), eq(institutionSignatures.isActive, true)));
  return row?.signature ?? null;
}

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
  actor: AuditActor,
): Promise<Signature | null> {
  return db.transaction(async (tx) => {
    const mine = and(eq(institutionSignatures.id, id), eq(institutionSignatures.institutionId, institutionId));
    const [before] = await tx.select().from(institutionSignatures).where(mine).for('update');
    if (!before) return null;
    const [row] = await tx
      .update(institutionSignatures)
      .set({ signature: change.signature, isActive: change.isActive })
      .where(mine)
      .returning();
    const fields = [
      ...(before.signature === row!.signature ? [] : ['signature']),
      ...(before.isActive === row!.isActive ? [] : ['is_active']),
    ];
    if (fields.length > 0) {
      await recordAudit(tx, actor, {
        action: 'settings.changed',
        subject: { kind: 'colegio', id: institutionId },
        detail: { settings: 'signature', signature_id: id, fields },
      });
    }
    return toSignature(row!);
  });
}
