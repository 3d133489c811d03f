// What the demo mailboxes say, in each country's words: families' messages to the staff, colleagues' notes,
// what the staff sent, scheduled and left as drafts. The content, apart from how server/seed/messages.ts
// spreads it over the folders. A family greets the person it writes to in their gender (see `greeting`).
import type { SchoolCountry } from '../../shared/school-year';
import { CHILE, MEXICO } from './names';

/** A family's message: `s` the student's first name, `c` the course, `g` the greeting ("Estimada maestra"). */
interface GuardianTopic {
  title: (s: string, c: string) => string;
  body: (s: string, c: string, g: string) => string;
  file?: string;
}

interface ColleagueTopic {
  title: string;
  body: string;
  file?: string;
}

/** A message the staff member sent to a course `c` (or one family, named by the course they are in). */
interface SentTopic {
  title: (c: string) => string;
  body: (c: string) => string;
  file?: string;
}

interface PlannedTopic {
  title: string;
  body: string;
}

/** The same number of topics per country, so both schools' folders are spread alike. */
interface MailTopics {
  guardian: readonly GuardianTopic[];
  colleague: readonly ColleagueTopic[];
  sent: readonly SentTopic[];
  planned: readonly PlannedTopic[];
}

const CL: MailTopics = {
  guardian: [
    {
      title: () => 'Justificativo de inasistencia',
      body: (s, _c, g) =>
        `${g}: ${s} no asistió a clases ayer por un cuadro de fiebre. Adjunto el certificado médico. Quedo pendiente de cualquier tarea que haya quedado. Saludos cordiales.`,
      file: 'Certificado médico.pdf',
    },
    {
      title: (_s, c) => `Consulta sobre la reunión de apoderados ${c}`,
      body: () =>
        'Buenas tardes, quería confirmar si la reunión será presencial o en línea, porque trabajo hasta las 18:00. Muchas gracias.',
    },
    {
      title: () => 'Autorización salida pedagógica al Museo de Historia Natural',
      body: (s) =>
        `Envío firmada la autorización para que ${s} participe en la salida pedagógica. Tiene alergia al maní; por favor consideren la colación.`,
      file: 'Autorización firmada.pdf',
    },
    {
      title: () => 'Retiro anticipado el viernes',
      body: (s) =>
        `Junto con saludar, informo que retiraré a ${s} a las 12:30 el viernes por un control médico. Pasará a buscarle su abuela.`,
    },
    {
      title: () => 'Cambio de número de teléfono',
      body: () =>
        'Hola, les informo que cambié mi número de celular. Por favor actualicen la ficha para seguir recibiendo las comunicaciones del colegio.',
    },
    {
      title: () => 'Solicitud de entrevista',
      body: (s, _c, g) =>
        `${g}: me gustaría agendar una entrevista para conversar sobre el rendimiento de ${s} en Matemática. Tengo disponibilidad los martes en la mañana.`,
    },
    {
      title: () => 'Uniforme y buzo institucional',
      body: () => '¿Dónde se puede comprar el buzo institucional? En la tienda del centro de padres no quedan tallas pequeñas. ¡Gracias!',
    },
    {
      title: () => 'Licencia médica',
      body: (s) => `Adjunto licencia médica de ${s} por cinco días. Agradeceré que me envíen las guías de estudio por correo electrónico.`,
      file: 'Licencia médica.pdf',
    },
  ],
  colleague: [
    {
      title: 'Consejo de profesores del jueves',
      body: 'Les recuerdo que el consejo de profesores será el jueves a las 16:00 en la biblioteca. Traer las notas del semestre.',
    },
    {
      title: 'Planificación de la semana de la ciencia',
      body: 'Adjunto la planificación preliminar de la semana de la ciencia. Por favor revisen los horarios de sus cursos.',
      file: 'Planificación semana de la ciencia.txt',
    },
    {
      title: 'Turnos de patio — diciembre',
      body: 'Comparto los turnos de patio para diciembre. Si necesitan un cambio, avísenme antes del lunes.',
    },
    {
      title: 'Actualización del reglamento de convivencia',
      body: 'La dirección aprobó la actualización del reglamento de convivencia escolar. Favor leerlo antes de la próxima reunión.',
    },
  ],
  sent: [
    {
      title: (c) => `Reunión de apoderados ${c}`,
      body: (c) =>
        `Estimados apoderados de ${c}: los invitamos a la reunión de apoderados el próximo miércoles a las 19:00 en la sala del curso. La asistencia es muy importante.`,
    },
    {
      title: () => 'Autorización salida pedagógica al Museo de Historia Natural',
      body: () =>
        'Les recordamos enviar firmada la autorización para la salida pedagógica al Museo de Historia Natural. Los estudiantes deben traer colación y agua.',
      file: 'Autorización salida pedagógica.pdf',
    },
    {
      title: () => 'Suspensión de clases por jornada de reflexión',
      body: () => 'Informamos que el viernes no habrá clases por la jornada de reflexión docente. El establecimiento permanecerá cerrado.',
    },
    {
      title: () => 'Campaña solidaria: útiles para la Teletón',
      body: () =>
        'Este mes realizaremos una campaña solidaria. Pueden enviar útiles escolares en buen estado hasta el día 28. ¡Muchas gracias por su compromiso!',
    },
    {
      title: (c) => `Calendario de evaluaciones ${c}`,
      body: (c) =>
        `Adjuntamos el calendario de evaluaciones de ${c} para el segundo semestre. Ante cualquier duda, escríbannos por este medio.`,
      file: 'Calendario de evaluaciones.txt',
    },
    {
      title: () => 'Vacunación escolar',
      body: () =>
        'El Centro de Salud Familiar realizará la vacunación escolar el martes. Si su pupilo no debe vacunarse, envíe el certificado correspondiente.',
    },
    {
      title: () => 'Recordatorio: pago del centro de padres',
      body: () => 'Recordamos que la cuota anual del centro de padres puede pagarse en secretaría o por transferencia.',
    },
    {
      title: () => 'Día del libro: disfraces de personajes',
      body: () => 'Para celebrar el día del libro, los niños y niñas pueden venir disfrazados de su personaje favorito. ¡Los esperamos!',
    },
  ],
  planned: [
    {
      title: 'Ceremonia de licenciatura',
      body: 'Los invitamos a la ceremonia de licenciatura, que se realizará en el gimnasio del colegio. Cada familia puede traer dos invitados.',
    },
    {
      title: 'Inicio del año escolar 2027',
      body: 'Les damos la bienvenida al año escolar 2027. Las clases comienzan el miércoles 3 de marzo a las 8:00.',
    },
    {
      title: 'Lista de útiles escolares',
      body: 'Adjuntamos la lista de útiles para el próximo año. Recuerden marcar cada cuaderno con el nombre del estudiante.',
    },
    {
      title: 'Matrícula: documentos pendientes',
      body: 'Aún faltan documentos de matrícula. Por favor acérquense a secretaría de lunes a viernes, de 8:30 a 13:00.',
    },
  ],
};

const MX: MailTopics = {
  guardian: [
    {
      title: () => 'Justificante de inasistencia',
      body: (s, _c, g) =>
        `${g}: ${s} faltó a clases ayer porque tuvo fiebre. Le adjunto el justificante médico. Quedo pendiente de las tareas que se hayan dejado. Saludos cordiales.`,
      file: 'Justificante médico.pdf',
    },
    {
      title: (_s, c) => `Duda sobre la junta de padres de familia ${c}`,
      body: () =>
        'Buenas tardes, quería confirmar si la junta será presencial o en línea, porque salgo de trabajar a las 18:00. Muchas gracias.',
    },
    {
      title: () => 'Permiso para la visita al Museo Nacional de Antropología',
      body: (s) =>
        `Les envío firmado el permiso para que ${s} asista a la visita escolar. Tiene alergia al cacahuate; por favor tómenlo en cuenta para el refrigerio.`,
      file: 'Permiso firmado.pdf',
    },
    {
      title: () => 'Salida temprano el viernes',
      body: (s) =>
        `Buen día, les aviso que recogeré a ${s} a las 12:30 el viernes porque tiene cita con el médico. Pasará por la escuela su abuela.`,
    },
    {
      title: () => 'Cambio de número de celular',
      body: () =>
        'Hola, les aviso que cambié mi número de celular. Por favor actualicen mis datos para seguir recibiendo los avisos de la escuela.',
    },
    {
      title: () => 'Solicitud de cita',
      body: (s, _c, g) =>
        `${g}: me gustaría agendar una cita para platicar sobre el desempeño de ${s} en Matemáticas. Puedo los martes por la mañana.`,
    },
    {
      title: () => 'Uniforme deportivo',
      body: () =>
        '¿Dónde se puede comprar el uniforme deportivo? En la tienda de la asociación de padres de familia ya no hay tallas chicas. ¡Gracias!',
    },
    {
      title: () => 'Constancia médica',
      body: (s) =>
        `Les adjunto la constancia médica de ${s}, que indica cinco días de reposo. Les agradeceré que me manden las tareas por correo.`,
      file: 'Constancia médica.pdf',
    },
  ],
  colleague: [
    {
      title: 'Consejo Técnico Escolar del viernes',
      body: 'Les recuerdo que la sesión del Consejo Técnico Escolar será el viernes a las 8:00 en la biblioteca. Traigan las calificaciones del trimestre.',
    },
    {
      title: 'Planeación de la semana de la ciencia',
      body: 'Adjunto la planeación preliminar de la semana de la ciencia. Por favor revisen los horarios de sus grupos.',
      file: 'Planeación semana de la ciencia.txt',
    },
    {
      title: 'Guardias de recreo — diciembre',
      body: 'Comparto las guardias de recreo de diciembre. Si necesitan un cambio, avísenme antes del lunes.',
    },
    {
      title: 'Actualización del reglamento escolar',
      body: 'La dirección aprobó la actualización del reglamento escolar. Favor de leerlo antes de la próxima junta.',
    },
  ],
  sent: [
    {
      title: (c) => `Junta de padres de familia ${c}`,
      body: (c) =>
        `Estimados padres de familia de ${c}: los invitamos a la junta del próximo miércoles a las 19:00 en el salón del grupo. Su asistencia es muy importante.`,
    },
    {
      title: () => 'Permiso para la visita al Museo Nacional de Antropología',
      body: () =>
        'Les recordamos enviar firmado el permiso para la visita escolar al Museo Nacional de Antropología. Los alumnos deben llevar refrigerio y agua.',
      file: 'Permiso visita escolar.pdf',
    },
    {
      title: () => 'Suspensión de clases por Consejo Técnico Escolar',
      body: () =>
        'Les informamos que el viernes no habrá clases por la sesión del Consejo Técnico Escolar. La escuela permanecerá cerrada.',
    },
    {
      title: () => 'Colecta: útiles para el Teletón',
      body: () =>
        'Este mes haremos una colecta. Pueden enviar útiles escolares en buen estado hasta el día 28. ¡Muchas gracias por su apoyo!',
    },
    {
      title: (c) => `Calendario de exámenes ${c}`,
      body: (c) =>
        `Adjuntamos el calendario de exámenes de ${c} para el segundo trimestre. Si tienen alguna duda, escríbannos por este medio.`,
      file: 'Calendario de exámenes.txt',
    },
    {
      title: () => 'Campaña de vacunación',
      body: () =>
        'El centro de salud aplicará vacunas en la escuela el martes. Si su hijo o hija no debe vacunarse, envíe la constancia correspondiente.',
    },
    {
      title: () => 'Recordatorio: cuota de la asociación de padres de familia',
      body: () =>
        'Les recordamos que la cuota voluntaria de la asociación de padres de familia puede pagarse en la dirección o por transferencia.',
    },
    {
      title: () => 'Día del libro: disfraces de personajes',
      body: () => 'Para celebrar el día del libro, los alumnos pueden venir disfrazados de su personaje favorito. ¡Los esperamos!',
    },
  ],
  planned: [
    {
      title: 'Ceremonia de fin de cursos',
      body: 'Los invitamos a la ceremonia de fin de cursos, que se realizará en el patio de la escuela. Cada familia puede traer dos invitados.',
    },
    {
      title: 'Entrega de boletas del segundo trimestre',
      body: 'Los esperamos el viernes a las 8:00 para la entrega de boletas del segundo trimestre en el salón de cada grupo.',
    },
    {
      title: 'Lista de útiles escolares',
      body: 'Adjuntamos la lista de útiles para el próximo ciclo escolar. Recuerden marcar cada cuaderno con el nombre del alumno.',
    },
    {
      title: 'Inscripción: documentos pendientes',
      body: 'Aún faltan documentos de inscripción. Por favor acudan a la dirección de lunes a viernes, de 8:30 a 13:00.',
    },
  ],
};

export const MAIL_TOPICS: Readonly<Record<SchoolCountry, MailTopics>> = { CL, MX };

/** Who a family writes to: their first given name, paternal surname and position at the school. */
export interface Addressee {
  firstNames: string;
  lastNameFather: string;
  position: string;
}

const FEMALE_NAMES = new Set([...CHILE.female, ...MEXICO.female]);

/** Positions a family addresses by the teacher's title ("Profesora de Matemática", "Maestro de Español"…). */
const TEACHES = /^(Profesora?|Maestr[ao]|Educadora?|Asesora?)\b/;

/**
 * How a family opens a message to `to`: a teacher by title ("Estimada profesora" in Chile, "Estimado maestro"
 * in Mexico), anyone else by surname ("Estimada señora Hernández"), in the addressee's gender (known from
 * the seed's name pools, where every given name comes from).
 */
export function greeting(country: SchoolCountry, to: Addressee): string {
  const female = FEMALE_NAMES.has(to.firstNames.split(' ')[0]!);
  if (TEACHES.test(to.position)) {
    const title = country === 'MX' ? (female ? 'maestra' : 'maestro') : female ? 'profesora' : 'profesor';
    return `${female ? 'Estimada' : 'Estimado'} ${title}`;
  }
  return female ? `Estimada señora ${to.lastNameFather}` : `Estimado señor ${to.lastNameFather}`;
}
