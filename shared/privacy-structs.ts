// Runtime checks for the privacy answers (privacy-contract.ts), in structs.ts' conventions: `type()` so extra
// fields do not break older clients.
import { BLOCK_REQUESTERS } from './privacy-requests-contract';
import { array, boolean, enums, nullable, number, record, string, type, union, type Struct } from 'superstruct';
import { PRIVACY_KINDS, type PrivacyInventory, type PrivacySearch } from './privacy-contract';

// ---------------------------------------------------------------------------------------------------------
// Access: search, inventory
// ---------------------------------------------------------------------------------------------------------

export const PrivacySearchStruct: Struct<PrivacySearch, unknown> = type({
  data: array(type({ kind: enums(PRIVACY_KINDS), id: number(), name: string(), dni: nullable(string()), hint: nullable(string()) })),
});

const RowStruct = record(string(), nullable(union([string(), number(), boolean()])));

export const PrivacyInventoryDataStruct = type({
  data: type({
    person: type({
      kind: enums(PRIVACY_KINDS),
      id: number(),
      name: string(),
      first_names: string(),
      last_name_father: string(),
      last_name_mother: string(),
      dni: nullable(string()),
      email: nullable(string()),
      phone: nullable(string()),
      birth_date: nullable(string()),
      withdrawn_at: nullable(string()),
    }),
    bloqueo: nullable(type({ solicitado_por: enums(BLOCK_REQUESTERS), bloqueado_el: string() })),
    eliminado_el: nullable(string()),
    read_at: string(),
    sections: record(string(), array(RowStruct)),
  }),
}) as unknown as Struct<{ data: PrivacyInventory }, unknown>;
