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

export interface DemoFamily {
  /** The phone a guardian signs in to the families' app with (/familia); the code arrives by SMS. */
  phone: string;
  /** The schools where that phone is a guardian's: one sign-in covers them all. */
  schools: readonly string[];
}

/**
 * Demo families of the families' app, printed by `npm start` beside the staff logins. The seed
 * (server/seed/demo-family.ts) gives this phone to a mother of San Andrés who is also a mother at the
 * Liceo del Elqui: one sign-in, two schools, a child in each, and app messages from both. A Chilean mobile
 * in two Chilean schools, as the seed's phones are by country; it does not end in 0000 (the SMS
 * simulator fails those numbers on purpose).
 */
export const DEMO_FAMILIES: readonly DemoFamily[] = [{ phone: '+56995550123', schools: [DEMO_SCHOOLS.sanAndres, DEMO_SCHOOLS.elqui] }];
