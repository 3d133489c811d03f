import { describe, expect, it } from 'vitest';
import { optWordOf } from '../../server/opt-outs/words';
import { confirmationText } from '../../server/opt-outs/texts';
import { smsText } from '../../shared/sms-text';

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

describe('confirmationText', () => {
  it("names the school in its country's words; an SMS goes in GSM-7, WhatsApp as written", () => {
    expect(confirmationText('out', 'sms', ['Colegio San Andrés'], 'es-CL')).toBe(
      'Listo: no recibiras mas mensajes de Colegio San Andrés por SMS. Responde ALTA para volver.',
    );
    expect(confirmationText('out', 'whatsapp', ['Escuela Benito Juárez'], 'es-MX')).toBe(
      'Listo: ya no recibirás mensajes de Escuela Benito Juárez por WhatsApp. Responde ALTA para volver.',
    );
    expect(confirmationText('in', 'whatsapp', ['Liceo El Qui'], 'es-CL')).toBe(
      'Listo: volverás a recibir los mensajes de Liceo El Qui por WhatsApp. Responde BAJA para dejarlos.',
    );
  });

  it('a phone no school knows hears from "tu colegio"; one of many schools from all of them', () => {
    expect(confirmationText('out', 'whatsapp', [], 'es-CL')).toContain('de tu colegio por WhatsApp');
    expect(confirmationText('out', 'whatsapp', [], 'es-MX')).toContain('de tu escuela por WhatsApp');
    expect(confirmationText('out', 'whatsapp', ['A', 'B'], 'es-CL')).toContain('de A y B por WhatsApp');
    expect(confirmationText('out', 'whatsapp', ['A', 'B', 'C'], 'es-MX')).toContain('de tus escuelas por WhatsApp');
  });

  it('fits one SMS segment for a usual school name', () => {
    const text = confirmationText('in', 'sms', ['Colegio Particular Subvencionado San Andrés de Ñuñoa'], 'es-CL');
    expect(smsText(text, null).ok).toBe(true);
  });
});
