// Field errors: what a 422 carries besides its message (`errors`, Laravel style), each field of the body or
// query with its Spanish messages. Domain modules collect them while checking input and return them in
// their outcome; the handler answers them with `invalid` (server/http/errors.ts). No Hono here, so the
// checks that build them need nothing of HTTP.

export type FieldErrors = Record<string, string[]>;

/** Adds `message` to `field`'s messages. */
export function addFieldError(errors: FieldErrors, field: string, message: string): void {
  // The field may be a key the client sent ("constructor", "__proto__"): only an own property is its messages,
  // and it is defined, not assigned, so `__proto__` stays a key instead of replacing the prototype.
  const messages = Object.hasOwn(errors, field) ? (errors[field] ?? []) : [];
  messages.push(message);
  Object.defineProperty(errors, field, { value: messages, enumerable: true, writable: true, configurable: true });
}

/** Whether any field has a message. */
export const hasFieldErrors = (errors: FieldErrors): boolean => Object.keys(errors).length > 0;
