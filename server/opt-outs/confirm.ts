// How the deployment answers a «BAJA» or «ALTA»: through the adapter of the channel the word came by, the
// same Twilio or Meta sender the family wrote to, outside the delivery engine. The answer is no school
// message: no delivery row, no quota, no retry (handler.ts logs a failure; the opt-out stands anyway).
// Its key is no round's (`hermes-<delivery>-<round>`), so no sent round is looked up for it and a status
// the provider reports for it moves nothing.
import { randomUUID } from 'node:crypto';
import type { Adapters, Outgoing } from '../delivery/channel';
import type { OptOutDeps } from './handler';

/** `confirm` for the opt-out handler; without adapters (an app that delivers nothing) it refuses, and is logged. */
export function confirmThroughAdapters(adapters: Adapters | null): OptOutDeps['confirm'] {
  return async (channel, phone, text) => {
    if (!adapters) throw new Error('Sin canales de envío: la confirmación no se envía');
    const outgoing: Outgoing = {
      deliveryId: 0,
      key: `confirmacion-${randomUUID()}`,
      channel,
      address: phone,
      messageId: 0,
      // WhatsApp's free text is «title, new line, text»: the confirmation is one line, so it is the title.
      title: channel === 'whatsapp' ? text : '',
      text: channel === 'whatsapp' ? '' : text,
      senderName: '',
      institutionName: '',
      attachments: [],
    };
    const result = await adapters[channel].send(outgoing);
    if (!result.ok) throw new Error(`El proveedor no aceptó la confirmación (${result.error})`);
  };
}
