// What the staff screen offers for one account, and what a roles-and-device save sends.
import { describe, expect, it } from 'vitest';
import type { StaffMember } from '../../shared/staff-contract';
import {
  canChange,
  canDeactivate,
  canReactivate,
  canResend,
  canRevoke,
  changeOf,
  rolesProblem,
  toggledRoles,
} from '../../src/machines/staff/staff-rules';

const member = (over: Partial<StaffMember> = {}): StaffMember => ({
  id: 7,
  name: 'Ana Rojas',
  email: 'ana@sanandres.cl',
  roles: ['docente'],
  device: 'cl',
  access: true,
  last_sign_in_at: null,
  state: 'active',
  invitation_state: null,
  invitation_expires_at: null,
  is_self: false,
  ...over,
});

const offered = (m: StaffMember) =>
  [
    canChange(m) && 'change',
    canDeactivate(m) && 'deactivate',
    canReactivate(m) && 'reactivate',
    canResend(m) && 'resend',
    canRevoke(m) && 'revoke',
  ].filter(Boolean);

describe('staff rules', () => {
  it('offers by state: an active colleague, oneself, the deactivated, the invited with a live or a dead link', () => {
    expect(offered(member())).toEqual(['change', 'deactivate']);
    expect(offered(member({ is_self: true }))).toEqual(['change']);
    expect(offered(member({ state: 'deactivated' }))).toEqual(['reactivate']);
    expect(offered(member({ state: 'invited', invitation_state: 'pending' }))).toEqual(['change', 'deactivate', 'resend', 'revoke']);
    expect(offered(member({ state: 'invited', invitation_state: 'expired' }))).toEqual(['change', 'deactivate', 'resend']);
  });

  it('toggles a role and keeps the contract order, whatever order they were picked in', () => {
    expect(toggledRoles(['docente'], 'colegio-administrador')).toEqual(['colegio-administrador', 'docente']);
    expect(toggledRoles(['colegio-administrador', 'docente'], 'docente')).toEqual(['colegio-administrador']);
  });

  it('refuses no role at all, and oneself dropping the admin role; a colleague may lose it (the server knows the last one)', () => {
    expect(rolesProblem(member(), [])).toBe('rolesRequired');
    const self = member({ is_self: true, roles: ['colegio-administrador'] });
    expect(rolesProblem(self, ['docente'])).toBe('ownAdmin');
    expect(rolesProblem(member({ roles: ['colegio-administrador'] }), ['docente'])).toBeNull();
  });

  it('sends only what changed, and nothing when nothing did', () => {
    const m = member({ roles: ['colegio-utp', 'docente'] });
    expect(changeOf(m, ['docente', 'colegio-utp'], 'cl')).toBeNull();
    expect(changeOf(m, ['docente'], 'cl')).toEqual({ roles: ['docente'] });
    expect(changeOf(m, ['docente', 'colegio-utp'], 'latam')).toEqual({ device: 'latam' });
  });
});
