// The school's signature (SPEC §7): `GET /institutions-signatures` (`data.data`) and
// `PATCH /institutions-signatures/{id}` with `signature` and `is_active` as 1 or 0. Bodies are checked
// before a machine sees them.
import { type } from 'superstruct';
import { COMPOSE_API, type Signature } from '../../../shared/compose-contract';
import { SignaturesBodyStruct, SignatureStruct } from '../../../shared/compose-structs';
import { fromCall, parseBody } from '../http/client';

const SignatureBodyStruct = type({ data: SignatureStruct });

export const signaturePath = (id: number): string => `${COMPOSE_API.signatures}/${id}`;

/** The school's signature row, or null when it has none (the contract lists at most one per school). */
export const fetchSignature = fromCall<Signature | null>(async ({ signal, http }) => {
  const body = await http.request(COMPOSE_API.signatures, { signal });
  return parseBody(body, SignaturesBodyStruct, COMPOSE_API.signatures).data[0] ?? null;
});

export interface SaveSignatureInput {
  id: number;
  signature: string;
  /** SPEC §7: sent as 1 or 0, not as a boolean. */
  is_active: 1 | 0;
}

export const saveSignature = fromCall<Signature, SaveSignatureInput>(async ({ input, signal, http }) => {
  const path = signaturePath(input.id);
  const body = await http.request(path, { method: 'PATCH', body: { signature: input.signature, is_active: input.is_active }, signal });
  return parseBody(body, SignatureBodyStruct, path).data;
});
