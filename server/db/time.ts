// Instants a `timestamp with time zone` column takes as the drivers send them (an ISO string from
// toISOString): years 1 to 9999 in UTC. JavaScript dates reach further (year 0, negative and six-digit
// years), which PostgreSQL refuses with an error, so input times are checked against this first.

/** Whether `date` is a real date a timestamp column can store. */
export function isStorableDate(date: Date): boolean {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= 1 && year <= 9999;
}
