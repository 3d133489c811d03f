// The product's library as each school reads it: stored in Chilean Spanish (library.ts), shown to
// a Mexican school in Mexican Spanish. SPEC §3 asks for the word for guardian ("Padre o tutor",
// shared/guardian-term.ts); templates that say more that is Chilean-only are given whole, below.
import type { Locale } from '../../shared/contract';
import { withGuardianTerm } from '../../shared/guardian-term';
import type { TemplateInput } from '../../shared/templates-contract';

type LibraryTemplate = TemplateInput;

/**
 * How a Mexican school reads the library where Chile's wording goes beyond the word for guardian (profesor
 * jefe, inspectoría, Minsal, matrícula, notas, "hrs."), keyed by the Chilean name the row keeps: the same
 * message in Mexican Spanish, as short. The others read with the locale's word for guardian alone.
 */
export const MX_LIBRARY: Readonly<Record<string, LibraryTemplate>> = {
  'Reunión de apoderados': {
    name: 'Reunión de padres o tutores',
    content:
      'Estimado padre o tutor: le invitamos a la reunión de padres o tutores de {curso} el ___ a las ___ h. Su asistencia es muy importante.',
  },
  'Citación a entrevista': {
    name: 'Citatorio a entrevista',
    content: 'Estimado padre o tutor: le citamos a entrevista sobre {estudiante} el ___ a las ___ h con ___. Si no puede, avísenos.',
  },
  'Salida pedagógica': {
    name: 'Visita escolar',
    content: 'Estimado padre o tutor: {curso} realizará una visita escolar a ___ el ___. Envíe el permiso firmado a más tardar el ___.',
  },
  'Vacunación escolar': {
    name: 'Vacunación escolar',
    content:
      'Estimado padre o tutor: el ___ se vacunará en la escuela a {curso} (campaña de salud). Si no autoriza, avise por escrito al asesor de grupo.',
  },
  'Lista de útiles': {
    name: 'Lista de útiles',
    content:
      'Estimado padre o tutor: la lista de útiles de {curso} ya está en la página de la escuela. Le pedimos enviar los materiales antes del ___.',
  },
  'Inasistencia a clases': {
    name: 'Inasistencia a clases',
    content:
      'Estimado padre o tutor: {estudiante} no asistió hoy a clases. Si fue por salud, entregue el justificante médico en la prefectura.',
  },
  'Atrasos reiterados': {
    name: 'Retardos frecuentes',
    content:
      'Estimado padre o tutor: {estudiante} registra ___ retardos este mes. Le pedimos reforzar la puntualidad. Dudas en la prefectura.',
  },
  'Término anticipado de la jornada': {
    name: 'Salida anticipada',
    content: 'Estimado padre o tutor: el ___ la jornada terminará a las ___ h por ___. Le pedimos organizar la salida a esa hora.',
  },
  'Proceso de matrícula': {
    name: 'Proceso de inscripción',
    content:
      'Estimado padre o tutor: la inscripción ___ será del ___ al ___ en control escolar, de 8:30 a 13:00 h. Traiga una identificación oficial.',
  },
  'Informe de notas': {
    name: 'Boleta de calificaciones',
    content:
      'Estimado padre o tutor: la boleta de calificaciones de {estudiante} está disponible. Recójala en la reunión o pídala al asesor de grupo.',
  },
  'Jornada solidaria': {
    name: 'Día sin uniforme solidario',
    content:
      'Estimada comunidad: el ___ tendremos un día sin uniforme con cooperación voluntaria de $___ para ___. ¡Gracias por su solidaridad!',
  },
  'Accidente escolar': {
    name: 'Accidente escolar',
    content:
      'Estimado padre o tutor: {estudiante} tuvo un accidente leve y fue atendido en enfermería. Comuníquese con la prefectura a la brevedad.',
  },
  'Semana de evaluaciones': {
    name: 'Semana de exámenes',
    content:
      'Estimados padres o tutores: del ___ al ___, {curso} tendrá exámenes de fin de trimestre. El calendario está en la página de la escuela.',
  },
  'Convivencia escolar: cómo informar una situación': {
    name: 'Convivencia escolar: cómo informar una situación',
    content:
      'Estimado padre o tutor: si su hijo o hija vive maltrato o acoso, puede informarlo en orientación educativa. Le escucharemos con discreción.',
  },
};

/** A library template as a school of `locale` reads it (stored in Chilean Spanish). */
export function libraryText(template: LibraryTemplate, locale: Locale): LibraryTemplate {
  if (locale === 'es-MX') {
    const mexican = MX_LIBRARY[template.name];
    if (mexican) return mexican;
  }
  return { name: withGuardianTerm(template.name, locale), content: withGuardianTerm(template.content, locale) };
}
