// Every key a writer puts in an audit entry's detail, and every code and field name it writes there, has
// Spanish words on the screen (es-CL and es-MX) and in the CSV. Literal keys are checked by the compiler
// (recordAudit's detail is typed by AUDIT_DETAIL_KEYS); the keys and codes writers take from other lists
// (an erasure's counts, retention kinds, block requesters, SSO refusals, staff states) are checked here.
import { describe, expect, it } from 'vitest';
import {
  AUDIT_DETAIL_CODES,
  AUDIT_DETAIL_FIELDS,
  AUDIT_DETAIL_KEYS,
  type AuditDetailCode,
  type AuditDetailKey,
  type AuditRow,
} from '../../shared/audit-contract';
import { auditDetailParts } from '../../shared/audit-detail';
import { ROLE_CODES } from '../../shared/codes';
import { BLOCK_REQUESTERS, type ErasureCounts } from '../../shared/privacy-requests-contract';
import { RETENTION_KINDS } from '../../shared/retention-contract';
import { SSO_REFUSALS } from '../../shared/sso-contract';
import { STAFF_DEVICES, STAFF_STATES } from '../../shared/staff-contract';
import { auditCsv } from '../../server/audit/csv';
import { auditDetailWords } from '../../server/audit/texts';
import type { ContactsView } from '../../server/audit/views';
import type { SignInMethod } from '../../server/auth/login';
import esCL from '../../src/i18n/audit/es-CL.json' with { type: 'json' };
import esMX from '../../src/i18n/audit/es-MX.json' with { type: 'json' };

// Written from types: a new count, view or sign-in method without its key or code fails the type check.
const erasureKeys: readonly AuditDetailKey[] = [] as (keyof ErasureCounts)[];
const viewCodes: readonly AuditDetailCode[] = [] as ContactsView[];
const methodCodes: readonly AuditDetailCode[] = [] as SignInMethod[];

const has = (list: readonly string[], values: readonly string[]) => values.filter((value) => !list.includes(value));
const KEYS = Object.keys(AUDIT_DETAIL_KEYS);

describe('the audit detail vocabulary', () => {
  it('names the keys and codes that writers take from other lists', () => {
    expect([erasureKeys, viewCodes, methodCodes]).toBeDefined();
    expect(has(KEYS, RETENTION_KINDS)).toEqual([]);
    expect(has(AUDIT_DETAIL_FIELDS, RETENTION_KINDS)).toEqual([]);
    expect(has(AUDIT_DETAIL_CODES, BLOCK_REQUESTERS)).toEqual([]);
    expect(has(AUDIT_DETAIL_CODES, SSO_REFUSALS)).toEqual([]);
    expect(has(AUDIT_DETAIL_CODES, STAFF_STATES)).toEqual([]);
    expect(has(AUDIT_DETAIL_CODES, STAFF_DEVICES)).toEqual([]);
  });

  it('has a word for every key, code, field and role in both locales of the screen', () => {
    for (const table of [esCL.audit, esMX.audit]) {
      expect(has(Object.keys(table.detail), KEYS)).toEqual([]);
      expect(has(Object.keys(table.value), AUDIT_DETAIL_CODES)).toEqual([]);
      expect(has(Object.keys(table.field), AUDIT_DETAIL_FIELDS)).toEqual([]);
      expect(has(Object.keys(table.role), ROLE_CODES)).toEqual([]);
      // And none left over from an older list.
      expect(has(KEYS, Object.keys(table.detail))).toEqual([]);
      for (const text of [...Object.values(table.detail), ...Object.values(table.value), ...Object.values(table.field)])
        expect(text.trim()).not.toBe('');
    }
  });

  it('has a word for every key, code and field in the CSV, in both locales', () => {
    for (const locale of ['es-CL', 'es-MX'] as const) {
      const words = auditDetailWords(locale);
      for (const key of KEYS) expect(words.key(key as AuditDetailKey)).toMatch(/^\p{Lu}/u);
      for (const code of AUDIT_DETAIL_CODES) expect(words.code(code)).toBeTruthy();
      for (const field of AUDIT_DETAIL_FIELDS) expect(words.field(field)).toBeTruthy();
      for (const role of ROLE_CODES) expect(words.role(role)).toBeTruthy();
    }
  });

  it('reads an unknown key or code in a generic form, and never throws', () => {
    const words = auditDetailWords('es-CL');
    expect(auditDetailParts({ nuevo_campo: 'otro_codigo', reason: 'muy_nuevo', fields: ['campo_nuevo'], n: null }, words)).toEqual([
      ['Motivo', 'muy nuevo'],
      ['Campos', 'campo nuevo'],
      ['Nuevo campo', 'otro codigo'],
      ['N', 'ninguno'],
    ]);
    expect(auditDetailParts({ to: '2026-11-30', from: 'active', action: 'person.erased,nada' }, words)).toEqual([
      ['Desde', 'Activo'],
      ['Hasta', '2026-11-30'],
      ['Acciones', 'Supresión de una persona, nada'],
    ]);
  });

  it("writes the CSV's details in the school's Spanish", () => {
    const row: AuditRow = {
      id: 1,
      at: '2026-11-30T12:00:00.000Z',
      action: 'roster.imported',
      actor: { kind: 'system', id: null, name: null },
      ip: null,
      subject: null,
      detail: { school_year: 2026, guardians_added: 2, courses_added: 1 },
    };
    expect(auditCsv([row], 'America/Santiago', 'es-CL')).toContain('Año escolar=2026 · Apoderados nuevos=2 · Cursos nuevos=1');
    expect(auditCsv([row], 'America/Mexico_City', 'es-MX')).toContain('Ciclo escolar=2026 · Padres o tutores nuevos=2 · Grupos nuevos=1');
  });
});
