// The activity screens (/dashboard/users, /ranking/courses, /ranking/users) as ONE lazy chunk: they share
// their period picker, formats and texts, and each chunk a route names costs the first download its file
// name in the route table's preload list.
export { DashboardUsersPage } from './dashboard-users-page';
export { RankingPage } from './ranking-page';
