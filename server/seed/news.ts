// The demo news wall: for every school, its categories in its country's words and ~15 posts over
// the last weeks by its managers: two pinned, one scheduled, one ended, one taken off the wall, one in the
// trash, some with a small generated picture (server/seed/png.ts) in the attachments store, some for one
// course or one level. Dates are relative to the seed's clock (the start of the hour, like the SMS use), so
// the statuses hold whenever the demo is loaded.
import { NEWSFEED_ROLES } from '../../shared/codes';
import { fold } from '../../shared/fold';
import { newsSearchText } from '../news/write';
import type { SeedFile, NewsSeed, SeedData } from './rows';
import { pngImage } from './png';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Mark = 'pinned' | 'scheduled' | 'ended' | 'unpublished' | 'trash' | 'image' | 'level' | 'course';
interface DemoPost {
  /** Index into the country's categories, or null. */
  category: number | null;
  title: string;
  body: string;
  marks?: Mark[];
}

const CATEGORIES = {
  CL: ['Comunicados', 'Eventos', 'Deportes', 'Logros', 'Convivencia escolar'],
  MX: ['Avisos', 'Eventos', 'Deportes', 'Reconocimientos', 'Convivencia escolar', 'Cooperativa escolar'],
} as const;

const POSTS: Record<'CL' | 'MX', DemoPost[]> = {
  CL: [
    {
      category: 0,
      title: 'Horario de invierno y uso de parka institucional',
      body: 'Desde el lunes la jornada comienza a las 8:30. Recordamos que la parka azul del colegio es parte del uniforme; se puede usar polerón institucional bajo ella.\n\nAnte cualquier duda, escriban a inspectoría.',
      marks: ['pinned'],
    },
    {
      category: 0,
      title: 'Proceso de admisión 2027',
      body: 'Ya está abierta la postulación para hermanos y hermanas de estudiantes del colegio. Los formularios se reciben en secretaría hasta el 15 de diciembre, de 8:30 a 13:00.',
      marks: ['pinned'],
    },
    {
      category: 3,
      title: 'Feria científica: ¡gracias por participar!',
      body: 'Más de 40 proyectos se presentaron en la feria científica. Felicitamos especialmente al 7° básico B por su trabajo sobre el agua en Ñuñoa, que representará al colegio en la etapa comunal.',
      marks: ['image'],
    },
    {
      category: 2,
      title: 'Campeonato comunal de básquetbol',
      body: 'Nuestro equipo sub-14 juega la final el sábado a las 11:00 en el gimnasio municipal. ¡Los esperamos para alentar a los jugadores!',
      marks: ['image', 'level'],
    },
    {
      category: 1,
      title: 'Semana de la chilenidad',
      body: 'Del 14 al 17 de septiembre celebraremos con muestras de cueca, juegos típicos y una feria de comida preparada por los cursos. El viernes los estudiantes pueden venir con ropa de huaso o china.',
      marks: ['image'],
    },
    {
      category: 0,
      title: 'Reunión de apoderados del curso',
      body: 'Citamos a los apoderados del curso a reunión el jueves a las 19:00 en la sala. Revisaremos el informe de notas parciales y la organización del paseo de fin de año.',
      marks: ['course'],
    },
    {
      category: 4,
      title: 'Jornada de convivencia escolar',
      body: 'El miércoles no habrá clases después del almuerzo: cada curso trabajará con su profesor jefe en actividades sobre buen trato y resolución de conflictos.',
    },
    {
      category: 0,
      title: 'Corte de agua programado',
      body: 'Por trabajos de Aguas Andinas, el martes la jornada termina a las 13:00. Los buses de acercamiento saldrán a esa hora.',
      marks: ['ended'],
    },
    {
      category: 0,
      title: 'Vacunación escolar contra la influenza',
      body: 'El equipo del Cesfam vendrá a vacunar a los estudiantes de 1° a 5° básico. Si no autorizan la vacuna, envíen el formulario de rechazo firmado con su hijo o hija.',
      marks: ['scheduled'],
    },
    {
      category: 1,
      title: 'Salida pedagógica al Museo Nacional de Historia Natural',
      body: 'El curso visitará el museo el viernes. Salimos a las 9:00 y volvemos a las 13:30; los estudiantes deben traer colación y la autorización firmada.',
      marks: ['course', 'image'],
    },
    {
      category: 3,
      title: 'Olimpiada de matemáticas: resultados',
      body: 'Tres estudiantes del colegio clasificaron a la etapa regional de la Olimpiada de Matemática. ¡Felicitaciones a ellos y a sus profesores!',
    },
    {
      category: 1,
      title: 'Cambio de fecha de la kermés',
      body: 'La kermés se traslada al sábado 6 de diciembre por el pronóstico de lluvia. Se mantienen los turnos de los cursos.',
      marks: ['unpublished'],
    },
    {
      category: 0,
      title: 'Menú del casino de la semana',
      body: 'Lunes: cazuela. Martes: porotos con riendas. Miércoles: pollo con arroz. Jueves: charquicán. Viernes: pescado con puré.',
      marks: ['trash'],
    },
    {
      category: 4,
      title: 'Taller de reciclaje para familias',
      body: 'Invitamos a las familias a un taller de compostaje y reciclaje el sábado a las 10:00 en el patio techado. Cupos limitados: inscripciones con la profesora de ciencias.',
    },
    {
      category: 1,
      title: 'Día del libro: trueque de lectura',
      body: 'Cada estudiante puede traer un libro en buen estado para intercambiarlo en la biblioteca durante los recreos de la semana.',
    },
  ],
  MX: [
    {
      category: 0,
      title: 'Inscripciones al ciclo escolar 2027-2028',
      body: 'Las inscripciones para alumnos de nuevo ingreso están abiertas en la dirección de 8:00 a 13:00. Traer acta de nacimiento, CURP y certificado de primaria.',
      marks: ['pinned'],
    },
    {
      category: 0,
      title: 'Horario de entrada y salida',
      body: 'Les recordamos que la puerta se cierra a las 7:10. La salida del turno matutino es a las 13:40; favor de recoger puntualmente a sus hijos.',
      marks: ['pinned'],
    },
    {
      category: 3,
      title: 'Feria de ciencias: ¡felicidades a los ganadores!',
      body: 'El proyecto de robótica de 2° grado obtuvo el primer lugar de la zona escolar. Muchas felicidades a los alumnos y a su asesor.',
      marks: ['image'],
    },
    {
      category: 2,
      title: 'Torneo interescolar de fútbol',
      body: 'El equipo varonil juega la semifinal el viernes a las 16:00 en la unidad deportiva. ¡Vengan a apoyar!',
      marks: ['image', 'level'],
    },
    {
      category: 1,
      title: 'Ceremonia de honores a la bandera',
      body: 'El lunes la ceremonia estará a cargo del grupo de 3° A. Los alumnos deben presentarse con uniforme de gala.',
      marks: ['image'],
    },
    {
      category: 0,
      title: 'Junta de padres de familia del grupo',
      body: 'Se convoca a los padres de familia del grupo a junta el jueves a las 17:00 en el aula para la entrega de calificaciones del trimestre.',
      marks: ['course'],
    },
    {
      category: 4,
      title: 'Jornada de convivencia sana',
      body: 'El miércoles realizaremos actividades de convivencia y prevención del acoso escolar con apoyo del personal de USAER.',
    },
    {
      category: 0,
      title: 'Suspensión de labores por Consejo Técnico Escolar',
      body: 'El último viernes del mes no habrá clases por la sesión del Consejo Técnico Escolar.',
      marks: ['ended'],
    },
    {
      category: 0,
      title: 'Campaña de vacunación',
      body: 'Personal del centro de salud aplicará la vacuna contra la influenza. Es necesario traer la cartilla nacional de salud.',
      marks: ['scheduled'],
    },
    {
      category: 1,
      title: 'Visita al Museo Nacional de Antropología',
      body: 'El grupo visitará el museo el viernes. Salida 8:00, regreso 14:00. Entregar el permiso firmado y la cuota de transporte.',
      marks: ['course', 'image'],
    },
    {
      category: 3,
      title: 'Olimpiada de matemáticas: resultados',
      body: 'Dos alumnos de la escuela pasaron a la etapa estatal de la Olimpiada de Matemáticas. ¡Felicidades!',
    },
    {
      category: 1,
      title: 'Cambio de fecha del festival',
      body: 'El festival de fin de año se cambia al sábado 13 de diciembre. Los ensayos continúan en el mismo horario.',
      marks: ['unpublished'],
    },
    {
      category: 5,
      title: 'Productos de la cooperativa escolar',
      body: 'Esta semana la cooperativa ofrece fruta picada, agua natural y sándwiches. Se aceptan pagos en efectivo.',
      marks: ['trash'],
    },
    {
      category: 4,
      title: 'Taller de reciclaje para familias',
      body: 'Invitamos a las familias a un taller de separación de residuos el sábado a las 10:00 en el patio cívico.',
    },
    {
      category: 1,
      title: 'Día del libro: intercambio de lecturas',
      body: 'Cada alumno puede traer un libro en buen estado para intercambiarlo en la biblioteca durante el receso.',
    },
  ],
};

const COLORS: [number, number, number][] = [
  [31, 94, 160],
  [196, 84, 44],
  [46, 139, 87],
  [122, 74, 160],
  [200, 150, 30],
];

export function generateNews(out: SeedData, now: Date, firstAttachmentId: number): { news: NewsSeed; files: SeedFile[] } {
  const news: NewsSeed = { categories: [], posts: [], groups: [], attachments: [] };
  const files: SeedFile[] = [];
  // Whole hours keep two seeds in the same hour identical.
  const base = Math.floor(now.getTime() / HOUR) * HOUR;
  let attachmentId = firstAttachmentId;
  for (const school of out.institutions) {
    const country = school.country === 'MX' ? 'MX' : 'CL';
    const categoryIds = CATEGORIES[country].map((name, i) => {
      const id = news.categories.length + 1;
      news.categories.push({
        id,
        institutionId: school.id,
        name,
        nameKey: fold(name),
        position: i + 1,
        createdAt: new Date(base - 60 * DAY),
      });
      return id;
    });
    const managerIds = new Set(out.userRoles.filter((r) => (NEWSFEED_ROLES as readonly string[]).includes(r.code)).map((r) => r.userId));
    const authors = out.users.filter((u) => u.institutionId === school.id && managerIds.has(u.id));
    if (authors.length === 0) throw new Error(`El colegio ${school.name} no tiene quien publique en el mural`);
    const levels = out.levels.filter((l) => l.institutionId === school.id).sort((a, b) => a.position - b.position);
    const courses = out.courses.filter((c) => c.institutionId === school.id);
    const level = levels[Math.min(2, levels.length - 1)]!;
    const course = courses.find((c) => c.levelId === levels[0]!.id) ?? courses[0]!;
    POSTS[country].forEach((demo, i) => {
      const marks = new Set(demo.marks ?? []);
      const id = news.posts.length + 1;
      const author = authors[i % authors.length]!;
      // Every other day back from yesterday, at 9:00 to 12:00 (UTC here; the wall shows it in the school's zone).
      let publishAt = new Date(base - (2 * i + 1) * DAY - (i % 4) * HOUR);
      let endsAt: Date | null = null;
      if (marks.has('scheduled')) publishAt = new Date(base + 5 * DAY);
      if (marks.has('ended')) {
        publishAt = new Date(base - 20 * DAY);
        endsAt = new Date(base - 12 * DAY);
      }
      const scoped = marks.has('level') || marks.has('course');
      news.posts.push({
        id,
        institutionId: school.id,
        authorUserId: author.id,
        categoryId: demo.category === null ? null : categoryIds[demo.category]!,
        title: demo.title,
        body: demo.body,
        search: newsSearchText(demo.title, demo.body),
        audienceScope: scoped ? 'groups' : 'school',
        pinned: marks.has('pinned'),
        publishAt,
        endsAt,
        unpublishedAt: marks.has('unpublished') ? new Date(base - DAY) : null,
        deletedAt: marks.has('trash') ? new Date(base - 2 * HOUR) : null,
        deletedByUserId: marks.has('trash') ? author.id : null,
        createdAt: new Date(Math.min(publishAt.getTime(), base) - HOUR),
        updatedAt: new Date(Math.min(publishAt.getTime(), base) - HOUR),
      });
      if (marks.has('level')) news.groups.push({ postId: id, levelId: level.id, courseId: null });
      if (marks.has('course')) news.groups.push({ postId: id, levelId: null, courseId: course.id });
      if (marks.has('image')) {
        const content = pngImage(320, 180, COLORS[i % COLORS.length]!);
        const key = `seed/news/${school.id}-${id}.png`;
        files.push({ key, content });
        news.attachments.push({
          id: attachmentId++,
          messageId: null,
          newsPostId: id,
          ownerUserId: author.id,
          institutionId: school.id,
          name: `${demo.title.split(':')[0]!.trim()}.png`,
          size: content.length,
          contentType: 'image/png',
          storageKey: key,
          createdAt: new Date(publishAt.getTime() - HOUR),
        });
      }
    });
  }
  return { news, files };
}
