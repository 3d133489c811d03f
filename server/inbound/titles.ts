// How a family's SMS or WhatsApp reads in the administrators' inbox. Stored in the message, so in the
// Spanish both locales share.
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { InboundMessage } from './contract';

const CHANNEL_NAME: Record<InboundMessage['channel'], string> = { sms: 'SMS', whatsapp: 'WhatsApp' };

/** «+56 9 8765 4321»: the number as people read it (E.164 as it came when it does not parse). */
export function phoneForPeople(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}

/** «Mensaje por SMS de Ana Pérez Soto», «Mensaje por WhatsApp de +56 9 8765 4321 (número desconocido)». */
export function inboundTitle(channel: InboundMessage['channel'], from: string, unknown: boolean): string {
  return `Mensaje por ${CHANNEL_NAME[channel]} de ${from}${unknown ? ' (número desconocido)' : ''}`;
}
