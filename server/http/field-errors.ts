// Field errors: what a 422 carries besides its message (`errors`, Laravel style), each field of the body or
// query with its Spanish messages. Domain modules collect them while checking input and return them in
// their outcome; the handler answers them with `invalid` (server/http/errors.ts). No Hono here, so the
// checks that build them need nothing of HTTP.

export type FieldErrors = Record<string, string[]>;

/** Adds `message` to `field`'s messages. */
export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  const messages = errors[field] ?? [];
  messages.push(message);
  errors[field] = messages;
}

/** Whether any field has a message. */
export const hasFieldErrors = (errors: FieldErrors): boolean => Object.keys(errors).length > 0;
