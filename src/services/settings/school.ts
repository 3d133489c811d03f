// The school's own settings (shared/school-contract.ts): `GET /school` and `PATCH /school`. Bodies are
// checked before a machine sees them.
import { SCHOOL_API, type SchoolSettings, type SchoolSettingsInput } from '../../../shared/school-contract';
import { SchoolSettingsBodyStruct } from '../../../shared/school-structs';
import { fromCall, parseBody } from '../http/client';

export const fetchSchool = fromCall<SchoolSettings>(async ({ signal, http }) => {
  const body = await http.request(SCHOOL_API.school, { signal });
  return parseBody(body, SchoolSettingsBodyStruct, SCHOOL_API.school).data;
});

export const saveSchool = fromCall<SchoolSettings, SchoolSettingsInput>(async ({ input, signal, http }) => {
  const body = await http.request(SCHOOL_API.school, { method: 'PATCH', body: { ...input }, signal });
  return parseBody(body, SchoolSettingsBodyStruct, SCHOOL_API.school).data;
});
