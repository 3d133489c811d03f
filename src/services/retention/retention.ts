// A school's retention periods and the next sweep's preview (shared/retention-contract.ts): `GET /retention`
// and `PUT /retention`, bodies checked before a machine sees them.
import { RETENTION_API, type RetentionPeriods, type RetentionSettings } from '../../../shared/retention-contract';
import { RetentionSettingsBodyStruct } from '../../../shared/retention-structs';
import { fromCall, parseBody } from '../http/client';

export const fetchRetention = fromCall<RetentionSettings>(async ({ signal, http }) => {
  const body = await http.request(RETENTION_API, { signal });
  return parseBody(body, RetentionSettingsBodyStruct, RETENTION_API).data;
});

export const saveRetention = fromCall<RetentionSettings, RetentionPeriods>(async ({ input, signal, http }) => {
  const body = await http.request(RETENTION_API, { method: 'PUT', body: { periodos: { ...input } }, signal });
  return parseBody(body, RetentionSettingsBodyStruct, RETENTION_API).data;
});
