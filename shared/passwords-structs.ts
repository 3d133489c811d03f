// Runtime checks for the passwords bodies (passwords-contract.ts), in compose-structs.ts' conventions.
import { literal, string, type, type Describe } from 'superstruct';
import type { ResetOwner } from './passwords-contract';

const ResetOwnerStruct: Describe<ResetOwner> = type({ name: string(), email: string(), school: string() });

export const ResetOwnerBodyStruct = type({ data: ResetOwnerStruct });
export const OkBodyStruct = type({ data: type({ ok: literal(true) }) });
