// The demo's content reads as each school's country writes (docs/decisions/0137-one-vocabulary-per-locale.md):
// a Mexican school's mailboxes, history and wall say justificante, uniforme deportivo, asociación de padres
// de familia, never the Chilean word; and a family greets the person it writes to in that person's gender.
import { describe, expect, it } from 'vitest';
import { generateSeed } from '../../server/seed/generate';
import { DEMO_SCHOOLS } from '../../shared/demo';

/** Chilean words a Mexican school does not use, each with the Mexican one (for the failure message). */
const CHILEAN: readonly [RegExp, string][] = [
  [/apoderad/i, 'padre o tutor'],
  [/justificativo/i, 'justificante'],
  [/\bbuzo\b/i, 'uniforme deportivo'],
  [/centro de padres/i, 'asociación de padres de familia'],
  [/\bcolegio\b/i, 'escuela'],
  [/\bcursos?\b/i, 'grupo'],
  [/profesora? jefe/i, 'asesor de grupo'],
  [/colaci[oó]n/i, 'refrigerio'],
  [/salida pedag[oó]gica/i, 'visita escolar'],
  [/matr[ií]cula/i, 'inscripción'],
  [/\bpupilo/i, 'hijo o hija'],
  [/\bman[ií]\b/i, 'cacahuate'],
  [/\bensayo\b/i, 'examen'],
  [/licencia médica/i, 'constancia médica'],
  [/\bhrs\b/i, 'h'],
  [/funcionari/i, 'personal'],
];

describe('demo content', () => {
  const data = generateSeed();
  const school = (name: string) => data.institutions.find((i) => i.name === name)!.id;
  const juarez = school(DEMO_SCHOOLS.juarez);

  it("a Mexican school's messages, their recipients' labels and its wall speak Mexican Spanish", () => {
    const texts = [
      ...data.mail.messages.filter((m) => m.institutionId === juarez).map((m) => `${m.title}\n${m.content}`),
      ...data.mail.entries.filter((e) => e.institutionId === juarez).map((e) => e.counterpart),
      ...data.news.posts.filter((p) => p.institutionId === juarez).map((p) => `${p.title}\n${p.body}`),
    ];
    expect(texts.length).toBeGreaterThan(100);
    const found = new Set<string>();
    for (const text of texts) {
      // "fin de cursos" is Mexican: the end of the school year.
      const bare = text.replace(/fin de cursos/gi, '');
      for (const [word, mexican] of CHILEAN) if (word.test(bare)) found.add(`${text.split('\n')[0]} (${word} → ${mexican})`);
    }
    expect([...found]).toEqual([]);
  });

  it('its guardians write a justificante and ask about the uniforme deportivo', () => {
    const titles = new Set(data.mail.messages.filter((m) => m.institutionId === juarez).map((m) => m.title));
    expect(titles.has('Justificante de inasistencia')).toBe(true);
    expect(titles.has('Uniforme deportivo')).toBe(true);
  });

  it('a family greets the staff member it writes to in their gender, in both countries', () => {
    // The addressees are the demo mailboxes (server/seed/schools.ts DEMO_PEOPLE).
    const greetings: Record<string, RegExp> = {
      'docente@benitojuarez.edu.mx': /^Estimado maestro:/, // José Luis Martínez Cruz
      'administrador@benitojuarez.edu.mx': /^Estimada señora Hernández:/, // Guadalupe Hernández Ramírez
      'docente@sanandres.cl': /^Estimada profesora:/, // Camila Fernanda Muñoz Herrera
      'administrador@sanandres.cl': /^Estimado señor Fuentes:/, // Rodrigo Andrés Fuentes Carrasco
      'docente@liceoelqui.cl': /^Estimado profesor:/, // Felipe Esteban Rojas Pizarro
      'administrador@liceoelqui.cl': /^Estimada señora Araya:/, // Patricia Soledad Araya Cortés
    };
    for (const [email, greeting] of Object.entries(greetings)) {
      const user = data.users.find((u) => u.email === email)!;
      const inbox = new Set(data.mail.entries.filter((e) => e.userId === user.id && e.folder === 'inbox').map((e) => e.messageId));
      const greeted = data.mail.messages.filter((m) => inbox.has(m.id) && m.senderKind === 'apoderado' && /^Estimad[oa]/.test(m.content));
      expect(greeted.length, email).toBeGreaterThan(0);
      for (const m of greeted) expect(m.content, email).toMatch(greeting);
    }
  });
});
