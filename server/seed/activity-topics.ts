// What the demo's history of messages says: the topics of course, whole-school and colleague messages, some
// of them seasonal, in each country's words. The content, apart from how server/seed/activity.ts spreads it
// over the school year. Both countries have as many topics of each kind, in the same order and months, so
// the history is spread alike and only its words differ.
import type { SchoolCountry } from '../../shared/school-year';

/** The months (1–12) a seasonal topic fits, per country; topics without months fit any school day. */
export type Months = Partial<Record<SchoolCountry, readonly number[]>>;

type CourseTopic = { title: (c: string) => string; body: (c: string) => string; months?: Months };
type SchoolTopic = { title: string; body: string; months?: Months };
type ColleagueTopic = { title: string; body: string };

const WELCOME: Months = { CL: [3], MX: [8, 9] };
const REPORTS: Months = { CL: [7, 12], MX: [11, 3, 7] };

export const COURSE_TOPICS: Readonly<Record<SchoolCountry, readonly CourseTopic[]>> = {
  CL: [
    {
      title: (c) => `Bienvenida al año escolar — ${c}`,
      body: (c) => `Estimadas familias de ${c}: les damos la bienvenida. Adjuntamos el horario y la lista de útiles.`,
      months: WELCOME,
    },
    {
      title: (c) => `Reunión de apoderados ${c}`,
      body: (c) => `Les invitamos a la reunión de apoderados de ${c} el miércoles a las 19:00 en la sala del curso.`,
    },
    {
      title: (c) => `Calendario de evaluaciones ${c}`,
      body: (c) => `Compartimos el calendario de evaluaciones de ${c}. Ante cualquier duda, escríbannos por este medio.`,
    },
    {
      title: () => 'Salida pedagógica',
      body: () => 'La salida pedagógica parte a las 8:15 desde el colegio. Traer colación, agua y la autorización firmada.',
    },
    {
      title: () => 'Materiales para la clase de Artes',
      body: () => 'Para la próxima clase de Artes se necesitan témperas, pinceles y un block de dibujo.',
    },
    {
      title: () => 'Recordatorio de tareas',
      body: () => 'Recordamos que el trabajo de investigación se entrega el viernes. Pueden enviarlo también por correo.',
    },
    {
      title: () => 'Resultados del ensayo',
      body: () => 'Ya están disponibles los resultados del ensayo. Los revisaremos en clase la próxima semana.',
    },
    {
      title: () => 'Entrega de informes de notas',
      body: () => 'El informe de notas del semestre se entregará en la reunión de apoderados.',
      months: REPORTS,
    },
  ],
  MX: [
    {
      title: (c) => `Bienvenida al ciclo escolar — ${c}`,
      body: (c) => `Estimadas familias de ${c}: les damos la bienvenida. Adjuntamos el horario y la lista de útiles.`,
      months: WELCOME,
    },
    {
      title: (c) => `Junta de padres de familia ${c}`,
      body: (c) => `Les invitamos a la junta de padres de familia de ${c} el miércoles a las 19:00 en el salón del grupo.`,
    },
    {
      title: (c) => `Calendario de exámenes ${c}`,
      body: (c) => `Compartimos el calendario de exámenes de ${c}. Si tienen alguna duda, escríbannos por este medio.`,
    },
    {
      title: () => 'Visita escolar',
      body: () => 'La visita escolar sale de la escuela a las 8:15. Traer refrigerio, agua y el permiso firmado.',
    },
    {
      title: () => 'Materiales para la clase de Artes',
      body: () => 'Para la próxima clase de Artes se necesitan pinturas acrílicas, pinceles y un block de dibujo.',
    },
    {
      title: () => 'Recordatorio de tareas',
      body: () => 'Les recordamos que el trabajo de investigación se entrega el viernes. También pueden enviarlo por correo.',
    },
    {
      title: () => 'Resultados del examen diagnóstico',
      body: () => 'Ya están disponibles los resultados del examen diagnóstico. Los revisaremos en clase la próxima semana.',
    },
    {
      title: () => 'Entrega de boletas de calificaciones',
      body: () => 'La boleta de calificaciones del trimestre se entregará en la junta de padres de familia.',
      months: REPORTS,
    },
  ],
};

const SCHOOL_START: Months = { CL: [2, 3], MX: [8] };
// Announced in the days before the break: Chile's is in July, Mexico's from 20 December to 6 January.
const WINTER: Months = { CL: [6, 7], MX: [12] };
const EASTER: Months = { MX: [3, 4] };
const NATIONAL_DAYS: Months = { CL: [9], MX: [9] };
const ENROLMENT: Months = { CL: [10, 11, 12, 1, 2], MX: [1, 2, 7, 8] };
const SUPPLIES: Months = { CL: [12, 1, 2], MX: [7, 8] };
const YEAR_END: Months = { CL: [11, 12], MX: [6, 7] };

export const SCHOOL_TOPICS: Readonly<Record<SchoolCountry, readonly SchoolTopic[]>> = {
  CL: [
    {
      title: 'Inicio de clases',
      body: 'Las clases comienzan el lunes a las 8:00. Les esperamos con mucho entusiasmo.',
      months: SCHOOL_START,
    },
    {
      title: 'Vacaciones de invierno',
      body: 'Recordamos que las vacaciones de invierno comienzan el lunes. Las clases se retoman en dos semanas.',
      months: WINTER,
    },
    {
      title: 'Vacaciones de Semana Santa',
      body: 'Recordamos que las vacaciones de Semana Santa comienzan el lunes. Las clases se retoman en dos semanas.',
      months: EASTER,
    },
    { title: 'Suspensión de clases', body: 'Mañana no habrá clases por corte de agua en el sector. Las evaluaciones se reprogramarán.' },
    { title: 'Jornada de reflexión', body: 'El viernes no habrá clases por la jornada de reflexión docente.' },
    {
      title: 'Campaña solidaria',
      body: 'Este mes realizamos una campaña solidaria. Pueden enviar alimentos no perecibles hasta el día 28.',
    },
    {
      title: 'Fiestas patrias',
      body: 'Les invitamos a la celebración de fiestas patrias el jueves. Los estudiantes pueden venir con ropa de color.',
      months: NATIONAL_DAYS,
    },
    {
      title: 'Proceso de matrícula',
      body: 'Se abre el proceso de matrícula para el próximo año. Revisen los documentos requeridos en la página del colegio.',
      months: ENROLMENT,
    },
    {
      title: 'Lista de útiles',
      body: 'Ya está disponible la lista de útiles escolares para el próximo año en la página del colegio.',
      months: SUPPLIES,
    },
    {
      title: 'Ceremonia de fin de año',
      body: 'Les invitamos a la ceremonia de fin de año en el gimnasio. Cada familia puede traer dos invitados.',
      months: YEAR_END,
    },
  ],
  MX: [
    {
      title: 'Inicio de clases',
      body: 'Las clases comienzan el lunes a las 8:00. Los esperamos con mucho entusiasmo.',
      months: SCHOOL_START,
    },
    {
      title: 'Vacaciones de invierno',
      body: 'Les recordamos que las vacaciones de invierno comienzan el lunes. Las clases se reanudan en dos semanas.',
      months: WINTER,
    },
    {
      title: 'Vacaciones de Semana Santa',
      body: 'Les recordamos que las vacaciones de Semana Santa comienzan el lunes. Las clases se reanudan en dos semanas.',
      months: EASTER,
    },
    { title: 'Suspensión de clases', body: 'Mañana no habrá clases por falta de agua en la colonia. Los exámenes se reprogramarán.' },
    { title: 'Consejo Técnico Escolar', body: 'El viernes no habrá clases por la sesión del Consejo Técnico Escolar.' },
    { title: 'Colecta solidaria', body: 'Este mes hacemos una colecta solidaria. Pueden enviar alimentos no perecederos hasta el día 28.' },
    {
      title: 'Fiestas patrias',
      body: 'Les invitamos a la ceremonia por el aniversario de la Independencia el jueves. Los alumnos pueden venir con ropa tricolor.',
      months: NATIONAL_DAYS,
    },
    {
      title: 'Periodo de inscripciones',
      body: 'Se abre el periodo de inscripciones para el próximo ciclo escolar. Revisen los documentos requeridos en la página de la escuela.',
      months: ENROLMENT,
    },
    {
      title: 'Lista de útiles',
      body: 'Ya está disponible la lista de útiles escolares para el próximo ciclo en la página de la escuela.',
      months: SUPPLIES,
    },
    {
      title: 'Ceremonia de fin de cursos',
      body: 'Les invitamos a la ceremonia de fin de cursos en el patio. Cada familia puede traer dos invitados.',
      months: YEAR_END,
    },
  ],
};

export const COLLEAGUE_TOPICS: Readonly<Record<SchoolCountry, readonly ColleagueTopic[]>> = {
  CL: [
    { title: 'Consejo de profesores', body: 'El consejo de profesores será el jueves a las 16:00 en la biblioteca.' },
    { title: 'Turnos de patio', body: 'Comparto los turnos de patio del mes. Si necesitan un cambio, avísenme antes del lunes.' },
    { title: 'Plazo de notas', body: 'Recuerden subir las notas del período antes del viernes.' },
    { title: 'Capacitación en convivencia escolar', body: 'La capacitación en convivencia escolar será el miércoles después de clases.' },
  ],
  MX: [
    { title: 'Consejo Técnico Escolar', body: 'La sesión del Consejo Técnico Escolar será el viernes a las 8:00 en la biblioteca.' },
    { title: 'Guardias de recreo', body: 'Comparto las guardias de recreo del mes. Si necesitan un cambio, avísenme antes del lunes.' },
    { title: 'Captura de calificaciones', body: 'Recuerden capturar las calificaciones del periodo antes del viernes.' },
    { title: 'Capacitación en convivencia escolar', body: 'La capacitación en convivencia escolar será el miércoles después de clases.' },
  ],
};

/** How a message to some of the staff is labelled: all of them, or how many. */
export const STAFF_LABEL: Readonly<Record<SchoolCountry, { all: string; some: (n: number) => string }>> = {
  CL: { all: 'Funcionarios', some: (n) => `${n} funcionarios` },
  MX: { all: 'Personal', some: (n) => `${n} miembros del personal` },
};
