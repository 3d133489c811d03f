// The school's own settings (shared/school-contract.ts): `GET /school` and `PATCH /school`, and its logo
// (`PUT` and `DELETE /school/logo`). Bodies are checked before a machine sees them.
import { SCHOOL_API, type SchoolLogo, type SchoolSettings, type SchoolSettingsInput } from '../../../shared/school-contract';
import { SchoolLogoBodyStruct, SchoolSettingsBodyStruct } from '../../../shared/school-structs';
import { API_BASE, fromCall, parseBody } from '../http/client';

export const fetchSchool = fromCall<SchoolSettings>(async ({ signal, http }) => {
  const body = await http.request(SCHOOL_API.school, { signal });
  return parseBody(body, SchoolSettingsBodyStruct, SCHOOL_API.school).data;
});

export const saveSchool = fromCall<SchoolSettings, SchoolSettingsInput>(async ({ input, signal, http }) => {
  const body = await http.request(SCHOOL_API.school, { method: 'PATCH', body: { ...input }, signal });
  return parseBody(body, SchoolSettingsBodyStruct, SCHOOL_API.school).data;
});

/** Uploads or replaces the logo; a small file, so one plain request without progress. */
export const uploadLogo = fromCall<SchoolLogo, { file: File }>(async ({ input, signal, http }) => {
  const form = new FormData();
  form.append('file', input.file, input.file.name);
  const body = await http.request(SCHOOL_API.logo, { method: 'PUT', body: form, signal });
  return parseBody(body, SchoolLogoBodyStruct, SCHOOL_API.logo).data;
});

export const removeLogo = fromCall<null>(async ({ signal, http }) => {
  await http.request(SCHOOL_API.logo, { method: 'DELETE', signal });
  return null;
});

/** Where the browser finds a logo the API names (`/school/logo?v=…`): the API's base before it. */
export const logoHref = (url: string): string => `${API_BASE}${url}`;
