// Objection (blocking) and erasure of a student, guardian or staff member, for a school's administrators
// (mounted at /api/privacy beside the access routes of shared/privacy-contract.ts):
//   PUT    /api/privacy/people/:kind/:id/block     {solicitado_por}  → PersonBlock
//   DELETE /api/privacy/people/:kind/:id/block                       → 204
//   GET    /api/privacy/people/:kind/:id/erasure                     → ErasurePreview
//   POST   /api/privacy/people/:kind/:id/erasure   {confirmacion}    → ErasureResult
// `:kind` is apoderado | estudiante | funcionario.

export const PRIVACY_PERSON_KINDS = ['apoderado', 'estudiante', 'funcionario'] as const;
export type PrivacyPersonKind = (typeof PRIVACY_PERSON_KINDS)[number];

/** Who asked for the block: the person, their guardian (apoderado) or a legal representative. */
export const BLOCK_REQUESTERS = ['persona', 'apoderado', 'representante'] as const;
export type BlockRequester = (typeof BLOCK_REQUESTERS)[number];

export interface PersonBlock {
  tipo: PrivacyPersonKind;
  id: number;
  solicitado_por: BlockRequester;
  /** ISO 8601. */
  bloqueado_el: string;
}

/** The word an administrator types to confirm an erasure (as the preview asks for it). */
export const ERASURE_CONFIRMATION = 'ELIMINAR';

/** What an erasure removes or anonymises, counted before (preview) and after (result). */
export interface ErasureCounts {
  /** Messages and replies the person wrote, deleted. */
  mensajes_escritos: number;
  /** Their attachments, deleted with the files. */
  adjuntos: number;
  /** Messages they received: their recipient rows stay, anonymised. */
  mensajes_recibidos: number;
  /** Deliveries to them: kept for the totals, with no address. */
  entregas: number;
  /** App sessions, devices, push subscriptions, login codes, staff sign-in sessions. */
  sesiones: number;
  /** Contact history rows, anonymised. */
  historial_contacto: number;
  /** SMS / WhatsApp messages received from their phone, opt-outs and the simulator's copies, removed. */
  mensajes_entrantes: number;
  /** Saved lists they were a member of. */
  listas: number;
}

export interface ErasurePreview {
  tipo: PrivacyPersonKind;
  id: number;
  conteos: ErasureCounts;
  /** What to send as `confirmacion`. */
  confirmacion: typeof ERASURE_CONFIRMATION;
  /**
   * Why the erasure would be refused (409 with this code and message), or null: the administrator's own data,
   * or the school's last active administrator.
   */
  impedimento: { codigo: 'privacy.self' | 'staff.last_admin'; mensaje: string } | null;
}

export interface ErasureResult {
  tipo: PrivacyPersonKind;
  id: number;
  conteos: ErasureCounts;
  /** ISO 8601. */
  eliminado_el: string;
}
