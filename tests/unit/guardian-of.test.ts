// How a guardian sender is named (shared/message-rules.ts isFeminineRelationship and the messages texts):
// in the feminine for a mother, grandmother, aunt…, whatever the school's spelling; in Mexico with the school's word for guardian (shared/guardian-term.ts).
import { describe, expect, it } from 'vitest';
import { isFeminineRelationship } from '../../shared/message-rules';
import { translate } from '../fixtures/texts';

describe('whose guardian wrote', () => {
  it('names mothers, grandmothers, aunts and sisters in the feminine, however the school spelled them', () => {
    for (const relationship of ['Madre', 'madre', ' MADRE ', 'Abuela', 'Tía', 'tia', 'Hermana', 'Tutora', 'Mamá'])
      expect(isFeminineRelationship(relationship), relationship).toBe(true);
    for (const relationship of ['Padre', 'Abuelo', 'Tío', 'Hermano', 'Tutor', 'Otro', ''])
      expect(isFeminineRelationship(relationship), relationship).toBe(false);
  });

  it('reads "Apoderada de …" in Chile and "Madre o tutora de …" in Mexico', () => {
    const children = translate('es-CL', 'messages.guardianOf.child', { student: 'Óscar Núñez Núñez', course: '3° Básico A' });
    expect(children).toBe('Óscar Núñez Núñez · 3° Básico A');
    expect(translate('es-CL', 'messages.guardianOf.female', { children })).toBe('Apoderada de Óscar Núñez Núñez · 3° Básico A');
    expect(translate('es-CL', 'messages.guardianOf.male', { children })).toBe('Apoderado de Óscar Núñez Núñez · 3° Básico A');
    const grupo = translate('es-MX', 'messages.guardianOf.child', { student: 'Diego López Ruiz', course: '1° A' });
    expect(translate('es-MX', 'messages.guardianOf.female', { children: grupo })).toBe('Madre o tutora de Diego López Ruiz · 1° A');
    expect(translate('es-MX', 'messages.guardianOf.male', { children: grupo })).toBe('Padre o tutor de Diego López Ruiz · 1° A');
  });
});
