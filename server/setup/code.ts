// The first start's one-time setup code: printed once in the server's log, only its SHA-256 kept in
// server_secrets, so whichever server a browser reaches checks the same code, and nobody who reads the
// database can use it. Setting up spends it in the same transaction that creates the school.
import { createHash, randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/client';
import { serverSecrets } from '../db/schema/auth';

const SETUP_CODE = 'setup-code';
/** No 0/O, 1/I/L: read from a terminal and typed by hand. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** 12 of 31 symbols ≈ 59 bits, against an online guesser limited per IP. */
const LENGTH = 12;

const hashOf = (code: string): string => createHash('sha256').update(normalizeCode(code)).digest('hex');

/** What was typed, as it was printed: upper case, without the dashes and spaces people add or drop. */
export function normalizeCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]+/g, '');
}

/** A new code, shown in groups of four (`ABCD-EFGH-JKMN`). */
function newCode(): string {
  const symbols = Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]!).join('');
  return symbols.match(/.{4}/g)!.join('-');
}

/**
 * Issues a code: `replace` true writes a new one whatever is kept (the embedded database has one process,
 * so its start, or an operator's command, makes the code it prints the valid one); false keeps a code
 * another server on the same PostgreSQL already printed, and answers null then.
 */
export async function issueSetupCode(db: Queryable, replace: boolean): Promise<string | null> {
  const code = newCode();
  const row = { name: SETUP_CODE, value: hashOf(code) };
  const written = replace
    ? await db
        .insert(serverSecrets)
        .values(row)
        .onConflictDoUpdate({ target: serverSecrets.name, set: { value: row.value, createdAt: new Date() } })
        .returning({ name: serverSecrets.name })
    : await db.insert(serverSecrets).values(row).onConflictDoNothing().returning({ name: serverSecrets.name });
  return written.length > 0 ? code : null;
}

/** Spends the code when it is the kept one: true once, false for a wrong or spent code. */
export async function spendSetupCode(tx: Queryable, typed: string): Promise<boolean> {
  const deleted = await tx
    .delete(serverSecrets)
    .where(and(eq(serverSecrets.name, SETUP_CODE), eq(serverSecrets.value, hashOf(typed))))
    .returning({ name: serverSecrets.name });
  return deleted.length > 0;
}

/** Forgets any kept code (a school now exists some other way: the CLI, the demo seed). */
export async function dropSetupCode(db: Queryable): Promise<void> {
  await db.delete(serverSecrets).where(eq(serverSecrets.name, SETUP_CODE));
}

/** Whether the typed code is the kept one, without spending it (to report every field's problem at once). */
export async function codeMatches(db: Queryable, typed: string): Promise<boolean> {
  const [row] = await db
    .select({ name: serverSecrets.name })
    .from(serverSecrets)
    .where(and(eq(serverSecrets.name, SETUP_CODE), eq(serverSecrets.value, hashOf(typed))));
  return row !== undefined;
}
