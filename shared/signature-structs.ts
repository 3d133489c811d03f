// Runtime checks for the signature bodies (signature-contract.ts), in compose-structs.ts' conventions.
import { array, boolean, enums, number, string, type, type Describe } from 'superstruct';
import type { Signature } from './signature-contract';

const SignatureStruct: Describe<Signature> = type({
  id: number(),
  device: string(),
  domain: enums(['cl', 'mx'] as const),
  institution_id: number(),
  is_active: boolean(),
  signature: string(),
});

export const SignaturesBodyStruct = type({ data: array(SignatureStruct) });
export const SignatureBodyStruct = type({ data: SignatureStruct });
