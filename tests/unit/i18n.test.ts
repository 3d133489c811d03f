// Translations and the locale cookie (SPEC §1, §7).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { DEFAULT_LOCALE, getLocale, hasText, isLocale, loadTexts, NAMESPACES, setLocale, t, type MessageKey } from '../../src/i18n';
import { es as esCL, mx as esMX } from '../fixtures/texts';
import { DELETE_FAILED_KEY } from '../../src/machines/compose/attachment';
import { ERROR_KEYS } from '../../src/machines/compose/rules';
import { PROBLEM_KEYS, TOAST_KEYS } from '../../src/machines/compose/outcome-rules';
import { readCookie, readEpochCookie, writeCookie } from '../../src/services/http/cookies';
import { loadLocale, readLocaleChoice, readLocaleCookie } from '../../src/services/app/locale';

afterEach(async () => {
  document.cookie = 'i18n_redirected=; Max-Age=0; Path=/';
  await setLocale('es-CL');
  vi.restoreAllMocks();
});

describe('i18n', () => {
  it('starts in es-CL and interpolates {{placeholders}}', () => {
    expect(DEFAULT_LOCALE).toBe('es-CL');
    expect(getLocale()).toBe('es-CL');
    expect(t('error.title', { code: 404 })).toBe('Error 404');
    expect(t('terms.guardian')).toBe('Apoderado');
  });

  it('loads es-MX on demand', async () => {
    await setLocale('es-MX');
    expect(getLocale()).toBe('es-MX');
    expect(t('terms.guardian')).toBe('Padre o tutor');
    expect(t('app.tagline', { guardians: t('terms.guardians') })).toBe('Comunicación escolar con padres o tutores, alumnos y personal');
  });

  it("keeps the layout's texts out of the shell: the signed-in menu's come with the layout's namespace", async () => {
    // A fresh copy of the module, as the first download has it: nothing loaded but the shell.
    vi.resetModules();
    const fresh = await import('../../src/i18n');
    expect(fresh.t('nav.inbox')).toBe('nav.inbox');
    expect(fresh.t('toast.undo')).toBe('toast.undo');
    expect(fresh.t('session.checking')).toBe('Verificando tu sesión…');
    await fresh.loadTexts(['layout']);
    expect(fresh.t('nav.inbox')).toBe('Recibidos');
    expect(fresh.t('toast.undo')).toBe('Deshacer');
  });

  it('shows the key itself for a text that exists nowhere', () => {
    expect(t('no.such.key' as MessageKey)).toBe('no.such.key');
    expect(hasText('no.such.key')).toBe(false);
  });

  it("loads a screen's texts when asked, and again in the new locale after a switch", async () => {
    await setLocale('es-CL');
    await loadTexts(['reception']);
    expect(t('reception.filter.failed')).toBe('Fallidos');
    await setLocale('es-MX');
    // The namespace in use came along with the switch: the screen's texts stay translated.
    expect(t('reception.filter.failed')).toBe(esMX.reception.filter.failed);
    expect(hasText('reception.errorCode.quota')).toBe(true);
  });

  it('a screen that asks for its texts while a switch is under way gets them in the new locale too', async () => {
    // A fresh module: nothing loaded yet, as at start-up with the es-MX cookie.
    vi.resetModules();
    const fresh = await import('../../src/i18n');
    const switching = fresh.setLocale('es-MX');
    await fresh.loadTexts(['compose']);
    await switching;
    expect(fresh.getLocale()).toBe('es-MX');
    expect(fresh.t('compose.picker.students', { count: 2 })).toBe('2 alumnos');
  });

  it('the latest locale asked for wins, even when an earlier one finishes loading after it', async () => {
    // A school's locale arrives while the default's texts are still loading (the locale machine then asks
    // again): the earlier load, done last, must not switch back to the default.
    vi.resetModules();
    const fresh = await import('../../src/i18n');
    await fresh.setLocale('es-MX');
    await fresh.loadTexts(['compose']);
    const earlier = fresh.setLocale('es-CL');
    const latest = fresh.setLocale('es-MX');
    await Promise.all([earlier, latest]);
    expect(fresh.getLocale()).toBe('es-MX');
    expect(fresh.t('compose.picker.students', { count: 2 })).toBe('2 alumnos');
  });

  it('picks real plural forms from count (CLDR categories), in both locales', async () => {
    await loadTexts(['messages', 'compose']);
    expect(t('messages.deleted', { count: 1 })).toBe('Mensaje eliminado');
    expect(t('messages.deleted', { count: 3 })).toBe('3 mensajes eliminados');
    expect(t('folders.selected', { count: 1 })).toBe('1 seleccionado');
    expect(t('folders.selected', { count: 0 })).toBe('0 seleccionados');
    expect(t('compose.estimate.recipients', { count: 1 })).toBe('Llegará a 1 persona.');
    // Spanish has a "many" category for round millions; without its own form it reads as "other".
    expect(t('compose.estimate.recipients', { count: 1_000_000 })).toBe('Llegará a 1.000.000 personas.');
    await setLocale('es-MX');
    expect(t('compose.picker.students', { count: 1 })).toBe('1 alumno');
    expect(t('compose.picker.students', { count: 2 })).toBe('2 alumnos');
  });

  it('a count asks for the plural forms even where the same key also has a plain text (a label)', async () => {
    // recipientLists.members is the label "Miembros" and, with a count, "8 miembros": the count wins.
    await loadTexts(['recipient-lists']);
    expect(t('recipientLists.members')).toBe('Miembros');
    expect(t('recipientLists.members', { count: 1 })).toBe('1 miembro');
    expect(t('recipientLists.members', { count: 8 })).toBe('8 miembros');
    await setLocale('es-MX');
    expect(t('recipientLists.members', { count: 8 })).toBe('8 miembros');
  });

  it('writes the numbers of a text as the locale does: thousands grouped, es-CL 3.663, es-MX 3,663', async () => {
    await loadTexts(['compose', 'dashboard/activity']);
    expect(t('compose.estimate.smsLeft', { count: 3663, limit: 5000 })).toBe('Quedan 3.663 de 5.000 SMS este mes.');
    expect(t('compose.estimate.recipients', { count: 12_500 })).toBe('Llegará a 12.500 personas.');
    // Decimals too: "94,6" in Chile.
    expect(t('compose.quotaLow.text', { count: 3706, remaining: 3706, limit: 5000, percent: 74.1 })).toBe(
      'Quedan 3.706 SMS de 5.000 este mes (74,1 %)',
    );
    // A year is a name, not an amount: passed as text, it stays as written.
    expect(t('activity.period.schoolYearName', { year: '2026' })).toBe('Año escolar 2026');
    await setLocale('es-MX');
    expect(t('compose.estimate.smsLeft', { count: 3663, limit: 5000 })).toBe('Quedan 3,663 de 5,000 SMS este mes.');
    expect(t('compose.estimate.recipients', { count: 1 })).toBe('Llegará a 1 persona.');
  });

  it('a count sentence agrees with its own number: "1 irregular", "1 de 1 apoderado", "el último mensaje"', async () => {
    await loadTexts(['dashboard']);
    const summary = (total: number, blue: number, green: number, yellow: number, red: number) =>
      t('connectivity.devices.summary', {
        count: total,
        blue: t('connectivity.devices.blue', { count: blue }),
        green: t('connectivity.devices.green', { count: green }),
        yellow: t('connectivity.devices.yellow', { count: yellow }),
        red: t('connectivity.devices.red', { count: red }),
      });
    expect(summary(1200, 700, 300, 1, 199)).toBe(
      'De 1.200 apoderados: 700 al día con la app, 300 al día sin app (por SMS o WhatsApp), 1 irregular (sus últimos 3 envíos no llegaron, tenga o no la app) y 199 sin app ni un número al que el colegio pueda enviar.',
    );
    expect(summary(1, 0, 0, 0, 1)).toBe(
      'De 1 apoderado: 0 al día con la app, 0 al día sin app (por SMS o WhatsApp), 0 irregulares (sus últimos 3 envíos no llegaron, tengan o no la app) y 1 sin app ni un número al que el colegio pueda enviar.',
    );
    expect(t('connectivity.coverage.detail', { reached: 1, count: 1 })).toBe('1 de 1 apoderado');
    expect(t('connectivity.reach.valueText', { value: 0, count: 1 })).toBe('0 de 1 apoderado');
    expect(
      t('course.summary', {
        students: t('course.studentCount', { count: 1 }),
        guardians: t('course.guardianCount', { count: 2 }),
        coverage: '50 %',
      }),
    ).toBe('1 estudiante, 2 apoderados. Cobertura efectiva: 50 %.');
    expect(t('callList.generated', { course: '1° Básico A', count: 1, date: '20-11-2026' })).toBe(
      '1° Básico A · último mensaje · generada el 20-11-2026',
    );
    expect(t('callList.generated', { course: '1° Básico A', count: 3, date: '20-11-2026' })).toBe(
      '1° Básico A · últimos 3 mensajes · generada el 20-11-2026',
    );
    await setLocale('es-MX');
    expect(summary(1, 1, 0, 0, 0)).toBe(
      'De 1 padre o tutor: 1 al día con la app, 0 al día sin app (por SMS o WhatsApp), 0 irregulares (sus últimos 3 envíos no llegaron, tengan o no la app) y 0 sin app ni un número al que la escuela pueda enviar.',
    );
  });

  it('knows its locales', () => {
    expect(isLocale('es-MX')).toBe(true);
    expect(isLocale('en-US')).toBe(false);
    expect(isLocale(null)).toBe(false);
  });
});

/** Every dotted key with a text, e.g. `compose.errors.titleRequired`. */
function leaves(table: object, prefix = ''): string[] {
  return Object.entries(table).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leaves(value as object, `${prefix}${key}.`),
  );
}

describe('translation tables', () => {
  it('es-CL and es-MX have exactly the same keys, shell and every screen', () => {
    expect(leaves(esMX).sort()).toEqual(leaves(esCL).sort());
  });

  it('a plural text has its "one" and "other" forms, in every table', () => {
    const keys = leaves(esCL);
    const plural = keys.filter((key) => /_(one|other)$/.test(key)).map((key) => key.replace(/_(one|other)$/, ''));
    expect(plural.length).toBeGreaterThan(0);
    for (const base of plural) expect([keys.includes(`${base}_one`), keys.includes(`${base}_other`)], base).toEqual([true, true]);
  });

  it('every text with a {{count}} has its "one" and "other" forms, in every table (no "1 personas")', () => {
    for (const [name, table] of [
      ['es-CL', esCL],
      ['es-MX', esMX],
    ] as const) {
      const keys = leaves(table);
      const texts = new Map(
        keys.map((key) => [key, key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], table) as string]),
      );
      const counted = keys.filter((key) => texts.get(key)?.includes('{{count}}'));
      expect(counted.length).toBeGreaterThan(0);
      const bare = counted.filter((key) => !/_(one|other|many)$/.test(key));
      expect(bare, `${name}: count texts without plural forms`).toEqual([]);
      for (const base of new Set(counted.map((key) => key.replace(/_(one|other|many)$/, '')))) {
        expect([keys.includes(`${base}_one`), keys.includes(`${base}_other`)], `${name} ${base}`).toEqual([true, true]);
      }
    }
  });

  it("the templates' and recipient lists' screens speak Mexican Spanish in es-MX: no Chilean-only term", () => {
    // The document select keeps "RUT (Chile)" for a Chilean family; everything else is the Mexican word.
    const chilean = [
      /apoderad/i,
      /matr[ií]cul/i,
      /\bcolegios?\b/i,
      /\bcursos?\b/i,
      /funcionari/i,
      /\bañad/i,
      /\+56/,
      /\bhrs\b/i,
      /inspector[ií]a/i,
      /profesor jefe/i,
      /\bnotas\b/i,
    ];
    const found: string[] = [];
    for (const screen of ['templates', 'recipientLists'] as const) {
      for (const key of leaves(esMX[screen])) {
        const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], esMX[screen]) as string;
        if (key === 'recipientLists.editor.document.1') continue;
        for (const pattern of chilean) if (pattern.test(text)) found.push(`${screen}.${key}: ${text}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('counts the sentence agrees with: one SMS left, one course without students', async () => {
    await loadTexts(['compose']);
    expect(t('compose.estimate.sms', { total: 3, count: 1 })).toBe('Este mensaje usará 3 SMS; queda 1 este mes.');
    expect(t('compose.estimate.sms', { total: 3, count: 40 })).toBe('Este mensaje usará 3 SMS; quedan 40 este mes.');
    expect(t('compose.estimate.smsLeft', { count: 1, limit: 500 })).toBe('Queda 1 de 500 SMS este mes.');
    expect(t('compose.emptyCourses', { count: 1, courses: '1° Medio B' })).toBe(
      'Este curso no tiene estudiantes y no recibirá el mensaje: 1° Medio B',
    );
    expect(t('compose.emptyCourses', { count: 2, courses: '1° Medio A, 1° Medio B' })).toMatch(/^Estos cursos no tienen estudiantes/);
  });

  it('every text key the compose machines emit exists in both locales', async () => {
    const keys = [...Object.values(ERROR_KEYS), ...Object.values(PROBLEM_KEYS), ...Object.values(TOAST_KEYS), DELETE_FAILED_KEY];
    const known = new Set(leaves(esCL).map((key) => key.replace(/_(one|other)$/, '')));
    expect(keys.filter((key) => !known.has(key))).toEqual([]);
    await loadTexts(NAMESPACES);
    await setLocale('es-MX');
    expect(keys.filter((key) => t(key, { message: 'x' }) === key)).toEqual([]);
  });

  it('uses the SPEC texts verbatim for the compose rules', () => {
    expect(t(ERROR_KEYS.titleRequired)).toBe('Debes elegir un Título');
    expect(t(ERROR_KEYS.recipientsRequired)).toBe('Debes elegir uno o más Destinatarios');
    expect(t(PROBLEM_KEYS['sms.quota_exceeded'])).toBe('Cupo mensual de SMS excedido');
  });
});

describe('cookies', () => {
  it('reads, decodes and tolerates garbage', () => {
    document.cookie = 'plain=value; Path=/';
    document.cookie = 'encoded=a%20b; Path=/';
    document.cookie = 'broken=%E0%A4%A; Path=/';
    document.cookie = 'epoch=1700000000000; Path=/';
    document.cookie = 'notanumber=soon; Path=/';
    expect(readCookie('plain')).toBe('value');
    expect(readCookie('encoded')).toBe('a b');
    expect(readCookie('broken')).toBe('%E0%A4%A');
    expect(readCookie('missing')).toBeNull();
    expect(readEpochCookie('epoch')).toBe(1_700_000_000_000);
    expect(readEpochCookie('notanumber')).toBeNull();
    for (const name of ['plain', 'encoded', 'broken', 'epoch', 'notanumber']) document.cookie = `${name}=; Max-Age=0; Path=/`;
  });

  it('writes with path, max-age and SameSite', () => {
    const setter = vi.spyOn(document, 'cookie', 'set');
    writeCookie('x', 'a b', { maxAge: 60, sameSite: 'Lax', path: '/' });
    expect(setter).toHaveBeenCalledWith('x=a%20b; Path=/; Max-Age=60; SameSite=Lax');
  });
});

describe('locale service', () => {
  it('reads the choice kept in the i18n_redirected cookie, none when there is none or it is garbage', () => {
    expect(readLocaleCookie()).toBeNull();
    document.cookie = 'i18n_redirected=es-MX; Path=/';
    expect(readLocaleCookie()).toBe('es-MX');
    document.cookie = 'i18n_redirected=fr-FR; Path=/';
    expect(readLocaleCookie()).toBeNull();
  });

  it('loads a chosen locale and writes the cookie for 365 days, lax, path /', async () => {
    const setter = vi.spyOn(document, 'cookie', 'set');
    await expect(toPromise(createActor(loadLocale, { input: { locale: 'es-MX', remember: true } }).start())).resolves.toBe('es-MX');
    expect(getLocale()).toBe('es-MX');
    expect(setter).toHaveBeenCalledWith('i18n_redirected=es-MX; Path=/; Max-Age=31536000; SameSite=Lax');
  });

  it("loads the school's locale without writing the cookie: it is no choice of the user's", async () => {
    const setter = vi.spyOn(document, 'cookie', 'set');
    await expect(toPromise(createActor(loadLocale, { input: { locale: 'es-MX', remember: false } }).start())).resolves.toBe('es-MX');
    expect(getLocale()).toBe('es-MX');
    expect(setter).not.toHaveBeenCalled();
    expect(readCookie('i18n_redirected')).toBeNull();
  });

  it('at start-up reads whatever the cookie says', async () => {
    await expect(toPromise(createActor(readLocaleChoice).start())).resolves.toBeNull();
    document.cookie = 'i18n_redirected=es-MX; Path=/';
    await expect(toPromise(createActor(readLocaleChoice).start())).resolves.toBe('es-MX');
  });
});
