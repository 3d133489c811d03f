// A person's objection and erasure (shared/privacy-requests-contract.ts) as actor logic: block every message
// to them (saying who asked) or lift it, read what an erasure would remove, and erase them; each answer
// checked by its struct.
import { enums, literal, nullable, number, string, type, type Struct } from 'superstruct';
import {
  BLOCK_REQUESTERS,
  ERASURE_CONFIRMATION,
  PRIVACY_PERSON_KINDS,
  type BlockRequester,
  type ErasureCounts,
  type ErasurePreview,
  type ErasureResult,
  type PersonBlock,
} from '../../../shared/privacy-requests-contract';
import type { PrivacyPersonKey } from '../privacy/privacy';
import { fromCall, parseBody } from '../http/client';

const PRIVACY_REQUESTS_API = {
  block: ({ kind, id }: PrivacyPersonKey) => `/api/privacy/people/${kind}/${id}/block`,
  erasure: ({ kind, id }: PrivacyPersonKey) => `/api/privacy/people/${kind}/${id}/erasure`,
} as const;

const CountsStruct: Struct<ErasureCounts, unknown> = type({
  mensajes_escritos: number(),
  adjuntos: number(),
  mensajes_recibidos: number(),
  entregas: number(),
  sesiones: number(),
  historial_contacto: number(),
  mensajes_entrantes: number(),
  listas: number(),
});
const BlockStruct: Struct<{ data: PersonBlock }, unknown> = type({
  data: type({ tipo: enums(PRIVACY_PERSON_KINDS), id: number(), solicitado_por: enums(BLOCK_REQUESTERS), bloqueado_el: string() }),
});
const PreviewStruct: Struct<{ data: ErasurePreview }, unknown> = type({
  data: type({
    tipo: enums(PRIVACY_PERSON_KINDS),
    id: number(),
    conteos: CountsStruct,
    confirmacion: literal(ERASURE_CONFIRMATION),
    impedimento: nullable(type({ codigo: enums(['privacy.self', 'staff.last_admin'] as const), mensaje: string() })),
  }),
});
const ResultStruct: Struct<{ data: ErasureResult }, unknown> = type({
  data: type({ tipo: enums(PRIVACY_PERSON_KINDS), id: number(), conteos: CountsStruct, eliminado_el: string() }),
});

export const putPersonBlock = fromCall<PersonBlock, { key: PrivacyPersonKey; requester: BlockRequester }>(
  async ({ input, signal, http }) => {
    const path = PRIVACY_REQUESTS_API.block(input.key);
    const body = await http.request(path, { method: 'PUT', body: { solicitado_por: input.requester }, signal });
    return parseBody(body, BlockStruct, path).data;
  },
);

export const deletePersonBlock = fromCall<null, PrivacyPersonKey>(async ({ input, signal, http }) => {
  await http.request(PRIVACY_REQUESTS_API.block(input), { method: 'DELETE', signal });
  return null;
});

/** What an erasure would remove, and the server's Spanish words when it may not be done (the last administrator, oneself). */
export interface ErasurePreviewView {
  counts: ErasureCounts;
  impediment: string | null;
}

export const fetchErasurePreview = fromCall<ErasurePreviewView, PrivacyPersonKey>(async ({ input, signal, http }) => {
  const path = PRIVACY_REQUESTS_API.erasure(input);
  const preview = parseBody(await http.request(path, { signal }), PreviewStruct, path).data;
  return { counts: preview.conteos, impediment: preview.impedimento?.mensaje ?? null };
});

export const postErasure = fromCall<ErasureResult, { key: PrivacyPersonKey; confirmation: string }>(async ({ input, signal, http }) => {
  const path = PRIVACY_REQUESTS_API.erasure(input.key);
  const body = await http.request(path, { method: 'POST', body: { confirmacion: input.confirmation }, signal });
  return parseBody(body, ResultStruct, path).data;
});
