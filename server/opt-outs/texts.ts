// The one short message that answers an opt-out or an opt-in word (docs/decisions/0246-opt-out-confirmation.md),
// in the words of the family's school: the schools the phone belongs to are named, since the sender number is
// the deployment's and the family may not know which school it speaks for.
import type { Locale } from '../../shared/contract';
import { smsText } from '../../shared/sms-text';
import type { OptWord } from './words';

export type OptChannel = 'sms' | 'whatsapp';

const CHANNEL_NAME: Readonly<Record<OptChannel, string>> = { sms: 'SMS', whatsapp: 'WhatsApp' };

/** Who the family stops hearing from when no school (or too many to name) has the phone. */
const SOMEONE: Readonly<Record<Locale, { one: string; many: string }>> = {
  'es-CL': { one: 'tu colegio', many: 'tus colegios' },
  'es-MX': { one: 'tu escuela', many: 'tus escuelas' },
};

/** Schools named at most; past that the text would not fit one SMS. */
const NAMED_SCHOOLS = 2;

function schoolsText(names: readonly string[], locale: Locale): string {
  if (names.length === 0) return SOMEONE[locale].one;
  if (names.length > NAMED_SCHOOLS) return SOMEONE[locale].many;
  return names.join(' y ');
}

const TEXTS: Readonly<Record<Locale, Record<OptWord, (who: string, channel: string) => string>>> = {
  'es-CL': {
    out: (who, channel) => `Listo: no recibirás más mensajes de ${who} por ${channel}. Responde ALTA para volver.`,
    in: (who, channel) => `Listo: volverás a recibir los mensajes de ${who} por ${channel}. Responde BAJA para dejarlos.`,
  },
  'es-MX': {
    out: (who, channel) => `Listo: ya no recibirás mensajes de ${who} por ${channel}. Responde ALTA para volver.`,
    in: (who, channel) => `Listo: volverás a recibir los mensajes de ${who} por ${channel}. Responde BAJA para dejarlos.`,
  },
};

/** The confirmation of `word` on `channel`; an SMS in its GSM-7 form (shared/sms-text.ts), one segment for a usual name. */
export function confirmationText(word: OptWord, channel: OptChannel, schools: readonly string[], locale: Locale): string {
  const text = TEXTS[locale][word](schoolsText(schools, locale), CHANNEL_NAME[channel]);
  return channel === 'sms' ? smsText(text, null).text : text;
}
