// What an account's roles grant besides the roles themselves: its policies (`user_policies`, SPEC §6) and
// its `scope` (the signed-in user's modules, SPEC §3). One table for the seed and for the staff screen, so
// an invited colleague gets what a seeded one of the same role has, and a role change keeps them in step.
import { ACCESS_POLICY } from '../../shared/contract';
import { ADMIN_ROLES, hasAnyRole } from '../../shared/codes';

/** Every staff account: sign in, send messages, keep templates. */
export const BASE_POLICIES: readonly string[] = [ACCESS_POLICY, 'hermes-enviar-mensajes', 'hermes-gestionar-plantillas'];
/** Admin roles besides: the data screens and the school's settings. */
export const ADMIN_POLICIES: readonly string[] = ['hermes-ver-estadisticas', 'hermes-configurar-institucion'];

export const scopeFor = (roles: readonly string[]): string[] =>
  hasAnyRole(roles, ADMIN_ROLES) ? ['mensajeria', 'plantillas', 'dashboard'] : ['mensajeria', 'plantillas'];
