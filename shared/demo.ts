// Demo logins created by the seed (server/seed) and listed in the README. One password for all, on purpose:
// it is a demo school, and the README prints it.
export const DEMO_PASSWORD = 'Hermes.2026';

export interface DemoLogin {
  email: string;
  role: string;
  school: string;
  device: 'latam' | 'cl';
  /** false for the user without `hermes-acceder-sistema`. */
  access: boolean;
}

export const DEMO_SCHOOLS = {
  sanAndres: 'Colegio San Andrés de Ñuñoa',
  elqui: 'Liceo Bicentenario Valle del Elqui',
  juarez: 'Escuela Secundaria Técnica Benito Juárez',
} as const;

export const DEMO_LOGINS: readonly DemoLogin[] = [
  { email: 'administrador@sanandres.cl', role: 'colegio-administrador', school: DEMO_SCHOOLS.sanAndres, device: 'latam', access: true },
  { email: 'directora@sanandres.cl', role: 'colegio-director', school: DEMO_SCHOOLS.sanAndres, device: 'latam', access: true },
  { email: 'utp@sanandres.cl', role: 'colegio-utp', school: DEMO_SCHOOLS.sanAndres, device: 'cl', access: true },
  { email: 'corp.utp@sanandres.cl', role: 'corp-utp', school: DEMO_SCHOOLS.sanAndres, device: 'latam', access: true },
  { email: 'docente@sanandres.cl', role: 'docente', school: DEMO_SCHOOLS.sanAndres, device: 'cl', access: true },
  { email: 'docente.latam@sanandres.cl', role: 'docente', school: DEMO_SCHOOLS.sanAndres, device: 'latam', access: true },
  { email: 'sinacceso@sanandres.cl', role: 'docente', school: DEMO_SCHOOLS.sanAndres, device: 'cl', access: false },
  { email: 'administrador@liceoelqui.cl', role: 'colegio-administrador', school: DEMO_SCHOOLS.elqui, device: 'latam', access: true },
  { email: 'docente@liceoelqui.cl', role: 'docente', school: DEMO_SCHOOLS.elqui, device: 'cl', access: true },
  { email: 'administrador@benitojuarez.edu.mx', role: 'colegio-administrador', school: DEMO_SCHOOLS.juarez, device: 'latam', access: true },
  { email: 'docente@benitojuarez.edu.mx', role: 'docente', school: DEMO_SCHOOLS.juarez, device: 'latam', access: true },
];
