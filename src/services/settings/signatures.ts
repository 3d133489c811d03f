// The school's signature (SPEC §7): `GET /institutions-signatures` (`data.data`) and
// `PATCH /institutions-signatures/{id}` with `signature` and `is_active` as 1 or 0. Bodies are checked
// before a machine sees them.
import { SIGNATURE_API, type Signature } from '../../../shared/signature-contract';
import { SignatureBodyStruct, SignaturesBodyStruct } from '../../../shared/signature-structs';
import { fromCall, parseBody } from '../http/client';

/** The school's signature row, or null when it has none (the contract lists at most one per school). */
export const fetchSignature = fromCall<Signature | null>(async ({ signal, http }) => {
  const body = await http.request(SIGNATURE_API.signatures, { signal });
  return parseBody(body, SignaturesBodyStruct, SIGNATURE_API.signatures).data[0] ?? null;
});

export interface SaveSignatureInput {
  id: number;
  signature: string;
  /** SPEC §7: sent as 1 or 0, not as a boolean. */
  is_active: 1 | 0;
}

export const saveSignature = fromCall<Signature, SaveSignatureInput>(async ({ input, signal, http }) => {
  const path = SIGNATURE_API.signature(input.id);
  const body = await http.request(path, { method: 'PATCH', body: { signature: input.signature, is_active: input.is_active }, signal });
  return parseBody(body, SignatureBodyStruct, path).data;
});
