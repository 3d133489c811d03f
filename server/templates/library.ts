// The product's template libraries: Hermes (SPEC's `{product}`) and Socioemocional, written in
// Chilean Spanish (a Mexican school reads them in Mexican Spanish: library-text.ts where more than the word
// for guardian differs, else with its word for guardian, shared/guardian-term.ts). They are
// the product's content, not the demo's: every server start loads whichever are missing (`loadLibrary`), so
// a database the demo seed never touched has them too. Each fits one SMS with the school's signature, merge
// fields counted at a long real value (tests/api/templates.test.ts checks it in both locales). `___` marks
// what the author fills in before sending.
import { isNull } from 'drizzle-orm';
import { fold } from '../../shared/fold';
import type { TemplateInput, TemplateRepositoryCode } from '../../shared/templates-contract';
import type { Queryable } from '../db/client';
import { templates } from '../db/schema/templates';
import { templateValues } from './templates';

/** A library template: its name and content, as an own template's. */
export type LibraryTemplate = TemplateInput;

/** The product's templates (SPEC's `{product}`, repository `hermes`). */
export const HERMES_TEMPLATES: readonly LibraryTemplate[] = [
  {
    name: 'Reunión de apoderados',
    content:
      'Estimado apoderado: le invitamos a la reunión de apoderados de {curso} el ___ a las ___ hrs. Su asistencia es muy importante.',
  },
  {
    name: 'Suspensión de clases',
    content:
      'Estimada comunidad: informamos que el día ___ se suspenden las clases por ___. Las actividades se retoman el día ___ en horario normal.',
  },
  {
    name: 'Citación a entrevista',
    content: 'Estimado apoderado: le citamos a entrevista por {estudiante} el ___ a las ___ hrs. con ___. Si no puede, avísenos.',
  },
  {
    name: 'Salida pedagógica',
    content: 'Estimado apoderado: {curso} realizará una salida pedagógica a ___ el ___. Envíe la autorización firmada a más tardar el ___.',
  },
  {
    name: 'Vacunación escolar',
    content:
      'Estimado apoderado: el ___ se vacunará en el colegio a {curso} (campaña Minsal). Si no autoriza, avise por escrito al profesor jefe.',
  },
  {
    name: 'Lista de útiles',
    content:
      'Estimado apoderado: la lista de útiles de {curso} ya está en la página del colegio. Le pedimos enviar los materiales antes del ___.',
  },
  {
    name: 'Inasistencia a clases',
    content: 'Estimado apoderado: {estudiante} no asistió hoy a clases. Si fue por salud, presente el certificado médico en inspectoría.',
  },
  {
    name: 'Atrasos reiterados',
    content:
      'Estimado apoderado: {estudiante} registra ___ atrasos este mes. Le pedimos reforzar la llegada puntual. Dudas en inspectoría.',
  },
  {
    name: 'Término anticipado de la jornada',
    content: 'Estimado apoderado: el ___ la jornada terminará a las ___ hrs. por ___. Le pedimos organizar el retiro a esa hora.',
  },
  {
    name: 'Proceso de matrícula',
    content: 'Estimado apoderado: la matrícula ___ será del ___ al ___ en secretaría, de 8:30 a 13:00 hrs. Traiga su cédula de identidad.',
  },
  {
    name: 'Informe de notas',
    content: 'Estimado apoderado: el informe de notas de {estudiante} está disponible. Retírelo en la reunión o pídalo al profesor jefe.',
  },
  {
    name: 'Jornada solidaria',
    content:
      'Estimada comunidad: el ___ tendremos jornada de ropa de calle con aporte voluntario de $___ para ___. ¡Gracias por su solidaridad!',
  },
  {
    name: 'Simulacro de evacuación',
    content:
      'Estimado apoderado: el ___ haremos un simulacro de evacuación. Le pedimos conversar en casa sobre cómo actuar ante una emergencia.',
  },
  {
    name: 'Accidente escolar',
    content:
      'Estimado apoderado: {estudiante} tuvo un accidente leve y fue atendido en enfermería. Comuníquese con inspectoría a la brevedad.',
  },
  {
    name: 'Semana de evaluaciones',
    content:
      'Estimados apoderados: del ___ al ___, {curso} tendrá evaluaciones de fin de semestre. El calendario está en la web del colegio.',
  },
];

/** The socio-emotional library (repository `socioemocional`). */
export const SOCIOEMOTIONAL_TEMPLATES: readonly LibraryTemplate[] = [
  {
    name: 'Convivencia escolar: buen trato',
    content:
      'Estimada familia: esta semana trabajamos el buen trato en {curso}. Conversen en casa: ¿cómo nos cuidamos con palabras y gestos?',
  },
  {
    name: 'Convivencia escolar: cómo informar una situación',
    content:
      'Estimado apoderado: si su hijo o hija vive maltrato o acoso, puede informarlo al encargado de convivencia escolar. Le escucharemos con reserva.',
  },
  {
    name: 'Autocuidado: dormir bien',
    content:
      'Estimada familia: dormir bien ayuda a aprender. Les sugerimos acordar una hora para acostarse y dejar las pantallas una hora antes de dormir.',
  },
  {
    name: 'Autocuidado: nombrar las emociones',
    content:
      'Estimada familia: nombrar lo que sentimos ayuda a calmarnos. Pregunten hoy en casa: ¿qué te hizo sentir bien? ¿qué te preocupó?',
  },
  {
    name: 'Reconocimiento positivo: compañerismo',
    content: 'Estimado apoderado: {estudiante} tuvo una excelente actitud esta semana, ayudando a sus compañeros. ¡Felicitaciones!',
  },
  {
    name: 'Reconocimiento positivo: esfuerzo',
    content: 'Estimado apoderado: {estudiante} ha mostrado gran esfuerzo y constancia. Lo reconocemos y le invitamos a celebrarlo en casa.',
  },
  {
    name: 'Bienestar: vuelta a la rutina',
    content:
      'Estimada familia: volver a la rutina toma tiempo. Acompañen con paciencia y cuéntennos si notan algún cambio en el ánimo de sus hijos.',
  },
  {
    name: 'Convivencia digital',
    content:
      'Estimada familia: revisen juntos la privacidad de las redes sociales de sus hijos y recuerden que el respeto también se practica en línea.',
  },
  {
    name: 'Bienestar: pedir ayuda',
    content:
      'Estimada familia: si notan a su hijo o hija triste, aislado o con cambios de conducta, el equipo de convivencia puede orientarles.',
  },
];

export const LIBRARY: readonly { repository: TemplateRepositoryCode; templates: readonly LibraryTemplate[] }[] = [
  { repository: 'hermes', templates: HERMES_TEMPLATES },
  { repository: 'socioemocional', templates: SOCIOEMOTIONAL_TEMPLATES },
];

/**
 * Inserts the library templates the database lacks (by repository and folded name; one edited since
 * stays as it is), and returns how many. Two servers starting together cannot both insert one: the
 * library's unique index makes the second one skip it.
 */
export async function loadLibrary(db: Queryable, at = new Date()): Promise<number> {
  const present = new Set(
    (
      await db.select({ repository: templates.repository, key: templates.nameKey }).from(templates).where(isNull(templates.ownerUserId))
    ).map((r) => `${r.repository}/${r.key}`),
  );
  const missing = LIBRARY.flatMap(({ repository, templates: list }) =>
    list.filter((t) => !present.has(`${repository}/${fold(t.name)}`)).map((t) => templateValues(repository, t, null, at)),
  );
  if (missing.length === 0) return 0;
  const inserted = await db.insert(templates).values(missing).onConflictDoNothing().returning({ id: templates.id });
  return inserted.length;
}
