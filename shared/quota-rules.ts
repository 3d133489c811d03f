// The SMS quota's figures, defined once for compose (its banner, its estimate), the quota settings screen
// and the server that reserves: what is left of a month's limit, and what of it a message not marked
// "Emergencia" may use. A month's use counts every SMS sent or scheduled in it, so both screens read the
// same figure at the same moment (server/quota/balance.ts keeps the use).

/** SMS left of `limit` after `used` (never below 0), the emergency reserve included. */
export const smsRemaining = (limit: number, used: number): number => Math.max(0, limit - used);

/** SMS a message not marked emergency may still use: what is left beyond the reserve. */
export const smsFree = (remaining: number, reserved: number): number => Math.max(0, remaining - reserved);
