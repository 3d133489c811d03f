// The Spanish texts of objection and erasure answers.
import type { PrivacyPersonKind } from '../../shared/privacy-requests-contract';

export const PRIVACY_REQUEST_MESSAGES = {
  forbidden: 'Solo la administración del colegio puede bloquear o eliminar los datos de una persona.',
  erased: 'Esta persona ya fue eliminada: no quedan datos suyos que bloquear o eliminar.',
  confirmation: 'Para eliminar, escribe ELIMINAR en la confirmación.',
  requester: 'Indica quién pidió el bloqueo: la persona, su apoderado o un representante.',
  self: 'No puedes eliminar tus propios datos: pídeselo a otro administrador del colegio.',
  lastAdmin: 'La institución debe tener al menos un administrador activo: no puedes eliminar al último.',
} as const;

/**
 * What an erased person is called from then on, wherever their name was ("Apoderado eliminado"), in the words
 * of the school's country (src/i18n/people/es-MX.json: «Padre o tutor», «Alumno», «Personal»).
 */
export const ERASED_LABELS: Readonly<Record<'CL' | 'MX', Readonly<Record<PrivacyPersonKind, string>>>> = {
  CL: { apoderado: 'Apoderado eliminado', estudiante: 'Estudiante eliminado', funcionario: 'Funcionario eliminado' },
  MX: { apoderado: 'Padre o tutor eliminado', estudiante: 'Alumno eliminado', funcionario: 'Personal eliminado' },
};
