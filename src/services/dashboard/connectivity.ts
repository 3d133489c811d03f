// The data screens' calls (shared/dashboard-contract.ts `DASHBOARD_API`) as actor logic; every body is
// checked (shared/dashboard-structs.ts) before a machine sees it. Connectivity block (conn-spa).
import { fromCall, API_BASE, parseBody } from '../http/client';
import { DASHBOARD_API, type CallList, type Connectivity, type CourseConnectivity } from '../../../shared/dashboard-contract';
import { CallListBodyStruct, ConnectivityBodyStruct, CourseConnectivityBodyStruct } from '../../../shared/dashboard-structs';

/** `GET /dashboard/connectivity`: the school, its levels and their courses. */
export const fetchConnectivity = fromCall<Connectivity, void>(async ({ signal, http }) => {
  const body = await http.request(DASHBOARD_API.connectivity, { signal });
  return parseBody(body, ConnectivityBodyStruct, DASHBOARD_API.connectivity).data;
});

/** `GET /dashboard/connectivity/courses/{id}`: a course's students and guardians (another school's: 404). */
export const fetchCourseConnectivity = fromCall<CourseConnectivity, { courseId: number }>(async ({ input, signal, http }) => {
  const path = DASHBOARD_API.course(input.courseId);
  const body = await http.request(path, { signal });
  return parseBody(body, CourseConnectivityBodyStruct, path).data;
});

export interface CallListQuery {
  courseId: number;
  messages: number;
}

/** `GET /dashboard/connectivity/courses/{id}/call-list?messages=N`: the guardians not reached. */
export const fetchCallList = fromCall<CallList, CallListQuery>(async ({ input, signal, http }) => {
  const path = DASHBOARD_API.callList(input.courseId);
  const body = await http.request(path, { query: { messages: input.messages }, signal });
  return parseBody(body, CallListBodyStruct, path).data;
});

/** The same call list as CSV, for a plain download link (the session cookie goes with it). */
export const callListCsvUrl = (query: CallListQuery): string =>
  `${API_BASE}${DASHBOARD_API.callList(query.courseId)}?messages=${query.messages}&format=csv`;
