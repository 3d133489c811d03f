// Templates of the demo: the product's libraries (server/templates/library.ts) with fixed ids and
// dates, and a few "Mis plantillas" of the demo staff.
import { LIBRARY, type LibraryTemplate } from '../templates/library';
import { templateValues } from '../templates/templates';
import type { TemplateRow, SeedData } from './rows';

/** "Mis plantillas" of some demo users, by login. */
const OWN_TEMPLATES: readonly (LibraryTemplate & { owner: string })[] = [
  {
    owner: 'docente@sanandres.cl',
    name: 'Tarea de matemática',
    content: 'Recuerden que mañana se entrega la guía de fracciones. Traer cuaderno y calculadora.',
  },
  {
    owner: 'docente@sanandres.cl',
    name: 'Felicitaciones al curso',
    content: 'Felicitaciones a {curso} por su excelente participación en la feria científica. ¡Estamos muy orgullosos!',
  },
  {
    owner: 'administrador@sanandres.cl',
    name: 'Corte de agua',
    content: 'Estimada comunidad: por un corte de agua programado, mañana la jornada termina a las 13:00 hrs. Disculpen las molestias.',
  },
  {
    owner: 'docente@benitojuarez.edu.mx',
    name: 'Junta de grupo',
    content: 'Estimados padres de familia: les recordamos la junta del grupo {curso} el viernes a las 17:00 h en el aula.',
  },
];

const LIBRARY_AT = new Date(Date.UTC(2026, 2, 1, 12));
/** Own templates written in the weeks before the demo "now" (2026-11-20), one day apart. */
const OWN_FROM = Date.UTC(2026, 10, 2, 15);
const DAY = 86_400_000;

export function generateTemplates(out: Pick<SeedData, 'users'>): TemplateRow[] {
  const rows: TemplateRow[] = [];
  for (const { repository, templates: list } of LIBRARY) {
    for (const t of list) rows.push({ ...templateValues(repository, t, null, LIBRARY_AT), id: rows.length + 1 });
  }
  OWN_TEMPLATES.forEach((t, i) => {
    const owner = out.users.find((u) => u.email === t.owner);
    if (!owner) throw new Error(`La plantilla de demostración "${t.name}" es de ${t.owner}, que no existe`);
    const at = new Date(OWN_FROM + i * DAY);
    rows.push({
      ...templateValues('mis-plantillas', t, { userId: owner.id, institutionId: owner.institutionId }, at),
      id: rows.length + 1,
    });
  });
  return rows;
}
