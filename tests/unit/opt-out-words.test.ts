import { describe, expect, it } from 'vitest';
import { optWordOf } from '../../server/opt-outs/words';

describe('optWordOf', () => {
  it.each([
    'BAJA',
    'baja',
    'Baja.',
    '  BAJA!!! ',
    'Baja 🙏',
    'báJA',
    'STOP',
    'stop',
    'Stop por favor',
    'No más',
    'NO MAS',
    'no mas!',
    'Nomás',
    'No más mensajes por favor',
    'no mas mensajes, gracias',
    'CANCELAR',
    'Cancelar.',
    'Detener',
    'parar',
    'Por favor dar de baja',
    'Darme de baja',
    'UNSUBSCRIBE',
    'STOPALL',
    'Hola, baja por favor',
  ])('%j is an opt-out', (body) => {
    expect(optWordOf(body)).toBe('out');
  });

  it.each(['ALTA', 'alta', 'Alta!', 'START', 'start', 'Dar de alta', 'UNSTOP', 'Álta por favor'])('%j is an opt-in', (body) => {
    expect(optWordOf(body)).toBe('in');
  });

  it.each([
    'mi hija está de baja médica',
    'Baja médica',
    'La fiebre está baja',
    '¿Es alta o baja?',
    'No puedo ir, no más',
    'no más tarea por hoy?',
    'Gracias',
    'por favor',
    'Sí',
    'YES',
    'OK',
    '',
    '   ',
    '🙏',
    'Stop stop',
    'BAJA BAJA BAJA BAJA BAJA BAJA BAJA BAJA BAJA BAJA BAJA BAJA BAJA BAJA',
    'Se puede cancelar la reunión?',
    'alta costura',
  ])('%j is an ordinary reply', (body) => {
    expect(optWordOf(body)).toBeNull();
  });
});
