// Runtime checks for the setup bodies (setup-contract.ts), in compose-structs.ts' conventions. Its answer
// on success is a login's (`LoginBodyStruct` of structs.ts).
import { boolean, type, type Describe } from 'superstruct';
import type { SetupStatus } from './setup-contract';

const SetupStatusStruct: Describe<SetupStatus> = type({ needed: boolean() });

export const SetupStatusBodyStruct = type({ data: SetupStatusStruct });
