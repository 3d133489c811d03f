// API contract of the school's SMS signature (SPEC §2 /settings/message-signature, §7), shared by the SPA and
// `server/`: everyone reads it (compose shows it), the admin roles change it. Its rules are
// signature-rules.ts. Plain types and constants only.

/** `GET /institutions-signatures` → `{ data: Signature[] }` (at most one per institution here). */
export interface Signature {
  id: number;
  device: string;
  domain: 'cl' | 'mx';
  institution_id: number;
  is_active: boolean;
  signature: string;
}

/**
 * - GET   /institutions-signatures       → { data: Signature[] }
 * - PATCH /institutions-signatures/{id}  { signature, is_active: 1 | 0 } → { data: Signature }   (admin roles)
 */
export const SIGNATURE_API = {
  signatures: '/institutions-signatures',
  signature: (id: number) => `/institutions-signatures/${id}`,
} as const;
