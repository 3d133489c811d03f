// A Mexican school reads one vocabulary (docs/decisions/0024 and 0137-one-vocabulary-per-locale.md): "grupo" for a
// course, "grado" for a level, "club" for an elective, "escuela" for the school, "padre o tutor" for a
// guardian. Every es-MX text is scanned for the Chilean word; the few places a Chilean word is not
// vocabulary (a merge field's token, which is syntax typed into a message) are listed here, by key.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEWS_MESSAGES } from '../../shared/news-rules';

const I18N = resolve(__dirname, '../../src/i18n');

function tables(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tables(path);
    return name === 'es-MX.json' ? [path] : [];
  });
}

/** Every `key → text` of a table, keys dotted. */
function texts(table: object, prefix = ''): [string, string][] {
  return Object.entries(table).flatMap(([key, value]): [string, string][] =>
    typeof value === 'string' ? [[`${prefix}${key}`, value]] : texts(value as object, `${prefix}${key}.`),
  );
}

/** The Chilean word and the Mexican one that replaces it. */
const CHILEAN: readonly { word: RegExp; mexican: string }[] = [
  { word: /\bcursos?\b/i, mexican: 'grupo' },
  { word: /\bnivel(es)?\b/i, mexican: 'grado' },
  { word: /\belectiv[oa]s?\b/i, mexican: 'club' },
  { word: /\bcolegios?\b/i, mexican: 'escuela' },
  { word: /\bapoderad[oa]s?\b/i, mexican: 'padre o tutor' },
  { word: /\bUTP\b/, mexican: 'coordinación académica' },
  { word: /\bprofesora? jefe\b/i, mexican: 'asesor de grupo' },
  { word: /\bcentro de padres\b/i, mexican: 'asociación de padres de familia' },
  { word: /\bjustificativo\b/i, mexican: 'justificante' },
  { word: /matr[ií]cul/i, mexican: 'inscripción' },
  { word: /funcionari/i, mexican: 'personal' },
  { word: /\bañad/i, mexican: 'agregar' },
  { word: /\bhrs\b/i, mexican: 'h' },
  { word: /inspector[ií]a/i, mexican: 'prefectura' },
  { word: /\bbuzo\b/i, mexican: 'uniforme deportivo' },
];

/** `{curso}` is a merge field's token: syntax the user types, the same in every locale. */
const TOKEN = /\{(curso|estudiante|apoderado)\}/g;

/** Texts where a word above is not the vocabulary (none today beyond tokens). */
const ALLOWED: ReadonlySet<string> = new Set<string>([]);

describe('es-MX vocabulary', () => {
  const found = tables(I18N).flatMap((file) =>
    texts(JSON.parse(readFileSync(file, 'utf8')) as object).flatMap(([key, text]) => {
      const where = `${relative(I18N, file)} ${key}`;
      if (ALLOWED.has(where)) return [];
      const bare = text.replace(TOKEN, '');
      return CHILEAN.filter(({ word }) => word.test(bare)).map(({ mexican }) => `${where}: «${text}» (→ ${mexican})`);
    }),
  );

  it('scans every es-MX table', () => {
    expect(tables(I18N).length).toBeGreaterThanOrEqual(14);
  });

  it('no es-MX text uses the Chilean word where the Mexican one applies', () => {
    expect(found).toEqual([]);
  });
});

// shared/ texts the SPA shows as they are, in either country: written in words both read.
describe('texts every locale reads', () => {
  it("the news form's errors use no Chilean-only word", () => {
    const found = Object.entries(NEWS_MESSAGES).flatMap(([key, text]) =>
      CHILEAN.filter(({ word }) => word.test(text)).map(({ mexican }) => `${key}: «${text}» (→ ${mexican})`),
    );
    expect(found).toEqual([]);
  });
});
