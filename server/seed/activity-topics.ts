// What the demo's history of messages says: the topics of course, whole-school and colleague messages, some
// of them seasonal. The content, apart from how server/seed/activity.ts spreads it over the school year.
/** The months (1–12) a seasonal topic fits, per country; topics without months fit any school day. */
export type Months = Partial<Record<'CL' | 'MX', readonly number[]>>;

export const COURSE_TOPICS: { title: (c: string) => string; body: (c: string) => string; months?: Months }[] = [
  {
    title: (c) => `Bienvenida al año escolar — ${c}`,
    body: (c) => `Estimadas familias de ${c}: les damos la bienvenida. Adjuntamos el horario y la lista de útiles.`,
    months: { CL: [3], MX: [8, 9] },
  },
  {
    title: (c) => `Reunión de apoderados ${c}`,
    body: (c) => `Les invitamos a la reunión de apoderados de ${c} el miércoles a las 19:00 en la sala del curso.`,
  },
  {
    title: (c) => `Calendario de evaluaciones ${c}`,
    body: (c) => `Compartimos el calendario de evaluaciones de ${c}. Ante cualquier duda, escriban a la profesora jefe.`,
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
    months: { CL: [7, 12], MX: [11, 3, 7] },
  },
];

export const SCHOOL_TOPICS: { title: string; body: string; months?: Months }[] = [
  {
    title: 'Inicio de clases',
    body: 'Las clases comienzan el lunes a las 8:00. Les esperamos con mucho entusiasmo.',
    months: { CL: [2, 3], MX: [8] },
  },
  // Announced in the days before the break: Chile's is in July, Mexico's from 20 December to 6 January.
  {
    title: 'Vacaciones de invierno',
    body: 'Recordamos que las vacaciones de invierno comienzan el lunes. Las clases se retoman en dos semanas.',
    months: { CL: [6, 7], MX: [12] },
  },
  {
    title: 'Vacaciones de Semana Santa',
    body: 'Recordamos que las vacaciones de Semana Santa comienzan el lunes. Las clases se retoman en dos semanas.',
    months: { MX: [3, 4] },
  },
  { title: 'Suspensión de clases', body: 'Mañana no habrá clases por corte de agua en el sector. Las evaluaciones se reprogramarán.' },
  { title: 'Jornada de reflexión', body: 'El viernes no habrá clases por la jornada de reflexión docente.' },
  { title: 'Campaña solidaria', body: 'Este mes realizamos una campaña solidaria. Pueden enviar alimentos no perecibles hasta el día 28.' },
  {
    title: 'Fiestas patrias',
    body: 'Les invitamos a la celebración de fiestas patrias el jueves. Los estudiantes pueden venir con ropa de color.',
    months: { CL: [9], MX: [9] },
  },
  {
    title: 'Proceso de matrícula',
    body: 'Se abre el proceso de matrícula para el próximo año. Revisen los documentos requeridos en la página del colegio.',
    months: { CL: [10, 11, 12, 1, 2], MX: [1, 2, 7, 8] },
  },
  {
    title: 'Lista de útiles',
    body: 'Ya está disponible la lista de útiles escolares para el próximo año en la página del colegio.',
    months: { CL: [12, 1, 2], MX: [7, 8] },
  },
  {
    title: 'Ceremonia de fin de año',
    body: 'Les invitamos a la ceremonia de fin de año en el gimnasio. Cada familia puede traer dos invitados.',
    months: { CL: [11, 12], MX: [6, 7] },
  },
];

export const COLLEAGUE_TOPICS = [
  { title: 'Consejo de profesores', body: 'El consejo de profesores será el jueves a las 16:00 en la biblioteca.' },
  { title: 'Turnos de patio', body: 'Comparto los turnos de patio del mes. Si necesitan un cambio, avísenme antes del lunes.' },
  { title: 'Plazo de notas', body: 'Recuerden subir las notas del período antes del viernes.' },
  { title: 'Capacitación en convivencia escolar', body: 'La capacitación en convivencia escolar será el miércoles después de clases.' },
];
