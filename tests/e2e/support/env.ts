// Facts about the app under test shared by the specs and page objects.
import { COOKIE, XSRF_HEADER, API } from '../../../shared/contract';
import { DEMO_PASSWORD, DEMO_LOGINS } from '../../../shared/demo';

export { COOKIE, XSRF_HEADER, API, DEMO_PASSWORD, DEMO_LOGINS };

export const WRONG_PASSWORD = 'no-es-la-clave-123';

function demoEmail(email: string): string {
  if (!DEMO_LOGINS.some((login) => login.email === email)) throw new Error(`${email} is not a demo login`);
  return email;
}

/** Demo logins used by the specs (shared/demo.ts). */
export const USERS = {
  /** colegio-administrador, device latam: sees Datos, Mural and Configuración. */
  admin: demoEmail('administrador@sanandres.cl'),
  /** docente, device cl: no Datos, Mural or Configuración. */
  teacher: demoEmail('docente@sanandres.cl'),
  /** docente, device latam. */
  teacherLatam: demoEmail('docente.latam@sanandres.cl'),
  directora: demoEmail('directora@sanandres.cl'),
  utp: demoEmail('utp@sanandres.cl'),
  /** corp-utp; used only by the wrong-password spec, so its failed attempts never meet another test's. */
  corpUtp: demoEmail('corp.utp@sanandres.cl'),
  adminElqui: demoEmail('administrador@liceoelqui.cl'),
  teacherElqui: demoEmail('docente@liceoelqui.cl'),
  adminJuarez: demoEmail('administrador@benitojuarez.edu.mx'),
  teacherJuarez: demoEmail('docente@benitojuarez.edu.mx'),
} as const;
