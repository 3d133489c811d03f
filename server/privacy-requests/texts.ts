// The Spanish texts of objection and erasure answers.
import type { PrivacyPersonKind } from '../../shared/privacy-requests-contract';

export const PRIVACY_REQUEST_MESSAGES = {
  forbidden: 'Solo la administración del colegio puede bloquear o eliminar los datos de una persona.',
  erased: 'Esta persona ya fue eliminada: no quedan datos suyos que bloquear o eliminar.',
  confirmation: 'Para eliminar, escribe ELIMINAR en la confirmación.',
  requester: 'Indica quién pidió el bloqueo: la persona, su apoderado o un representante.',
} as const;

/** What an erased person is called from then on, wherever their name was ("Apoderado eliminado"). */
export const ERASED_LABELS: Readonly<Record<PrivacyPersonKind, string>> = {
  apoderado: 'Apoderado eliminado',
  estudiante: 'Estudiante eliminado',
  funcionario: 'Funcionario eliminado',
};
