// The school's signature (SPEC §3 "Signature", §5 "Signature length is 3 to 4"): the rule both sides apply
// to its text, so the settings screen refuses in the browser, with the same Spanish text, what
// `PATCH /institutions-signatures/{id}` would refuse (server/signatures/signatures.ts). How a message closes
// with it is `withSignature` / `smsText` in sms-text.ts, the one rule compose, the server and delivery use.
import { smsText } from './sms-text';

const SIGNATURE_MIN = 3;
const SIGNATURE_MAX = 4;

export const SIGNATURE_MESSAGES = {
  length: `La firma debe tener entre ${SIGNATURE_MIN} y ${SIGNATURE_MAX} caracteres.`,
  characters: 'La firma solo puede tener letras, números y signos que se puedan enviar por SMS, sin espacios.',
  isActive: 'El estado de la firma debe ser 1 (activa) o 0 (inactiva).',
  forbidden: 'No tienes permiso para modificar la firma de la institución.',
} as const;

/** What the server keeps of a typed signature: its blanks around it trimmed. */
export const signatureText = (typed: string): string => typed.trim();

/** A typed signature's length as the rule counts it: trimmed, in characters as people see them (not UTF-16 units). */
export const signatureLength = (typed: string): number => [...signatureText(typed)].length;

/** The Spanish field error for a typed signature, or null when it may be saved. */
export function signatureError(typed: string): string | null {
  const text = signatureText(typed);
  const length = signatureLength(typed);
  if (length < SIGNATURE_MIN || length > SIGNATURE_MAX) return SIGNATURE_MESSAGES.length;
  if (smsText(text, null).unsupported.length > 0 || /\s/.test(text)) return SIGNATURE_MESSAGES.characters;
  return null;
}
