// Runtime checks for the retention bodies (retention-contract.ts), in compose-structs.ts' conventions.
import { boolean, number, object, string, type, type Describe } from 'superstruct';
import type { RetentionSettings } from './retention-contract';

const months = number();
const removal = type({ cantidad: number(), anteriores_a: string() });

const RetentionSettingsStruct: Describe<RetentionSettings> = type({
  periodos: object({ mensajes: months, respuestas: months, entregas: months, adjuntos: months, recibidos: months, auditoria: months }),
  personalizados: boolean(),
  proxima: type({
    fecha: string(),
    tipos: object({ mensajes: removal, respuestas: removal, entregas: removal, adjuntos: removal, recibidos: removal, auditoria: removal }),
  }),
});

export const RetentionSettingsBodyStruct = type({ data: RetentionSettingsStruct });
