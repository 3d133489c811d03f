// How a family's SMS or WhatsApp reads in the administrators' inbox. Stored in the message, so in the
// Spanish both locales share.
import type { InboundMessage } from './contract';

const CHANNEL_NAME: Record<InboundMessage['channel'], string> = { sms: 'SMS', whatsapp: 'WhatsApp' };

/** «Mensaje por SMS de Ana Pérez Soto», «Mensaje por WhatsApp de +56 9 8765 4321 (número desconocido)». */
export function inboundTitle(channel: InboundMessage['channel'], from: string, unknown: boolean): string {
  return `Mensaje por ${CHANNEL_NAME[channel]} de ${from}${unknown ? ' (número desconocido)' : ''}`;
}
