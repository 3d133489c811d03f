// A person's data (shared/privacy-contract.ts `PRIVACY_API`) as actor logic: the search for the person a
// request names and everything held about one person, each answer checked by its struct; and the address the
// ZIP downloads from (a plain link: the browser saves it with the session's cookies, as the roster's files).
import { PRIVACY_API, type PrivacyInventory, type PrivacyKind, type PrivacyMatch } from '../../../shared/privacy-contract';
import { PrivacyInventoryDataStruct, PrivacySearchStruct } from '../../../shared/privacy-structs';
import { fromCall, parseBody } from '../http/client';

export const searchPrivacyPeople = fromCall<PrivacyMatch[], { q: string }>(async ({ input, signal, http }) => {
  const body = await http.request(PRIVACY_API.people, { query: { q: input.q.trim() }, signal });
  return parseBody(body, PrivacySearchStruct, PRIVACY_API.people).data;
});

export interface PrivacyPersonKey {
  kind: PrivacyKind;
  id: number;
}

export const fetchPrivacyInventory = fromCall<PrivacyInventory, PrivacyPersonKey>(async ({ input, signal, http }) => {
  const path = PRIVACY_API.person(input.kind, input.id);
  return parseBody(await http.request(path, { signal }), PrivacyInventoryDataStruct, path).data;
});

/** Where "Descargar sus datos" points. */
export const privacyExportHref = (key: PrivacyPersonKey): string => PRIVACY_API.exportOf(key.kind, key.id);
