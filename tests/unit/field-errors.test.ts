// Field errors keyed by what a client sent: a key that names something every object has must stay a key.
import { describe, expect, it } from 'vitest';
import { addFieldError, hasFieldErrors, type FieldErrors } from '../../server/http/field-errors';

describe('addFieldError', () => {
  it('keeps fields named like the properties every object has as plain fields', () => {
    const errors: FieldErrors = {};
    for (const field of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) addFieldError(errors, field, `Mal: ${field}`);
    addFieldError(errors, 'constructor', 'Otra vez');
    // As the client reads the answer (JSON.parse keeps `__proto__` as a key, as an object literal would not).
    expect(JSON.stringify(errors)).toBe(
      '{"constructor":["Mal: constructor","Otra vez"],"toString":["Mal: toString"],"__proto__":["Mal: __proto__"],"hasOwnProperty":["Mal: hasOwnProperty"]}',
    );
    expect(Object.getPrototypeOf(errors)).toBe(Object.prototype);
    expect(hasFieldErrors(errors)).toBe(true);
  });
});
