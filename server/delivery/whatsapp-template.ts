// What WhatsApp's approved template says, the same through Meta and through Twilio: the school, the title and
// a link to read the message. One reading for both adapters, so a school's staff are never sent to the
// families' app, nor a title with a new line refused by one provider and not the other.
import { pushMessageUrl } from '../../shared/push-contract';
import type { Outgoing } from './channel';

/**
 * A template parameter: WhatsApp refuses new lines, tabs and more than 4 spaces in a row (Meta's 132018,
 * Twilio's content variables go through the same check), and an empty one. Folded to one line of single spaces.
 */
const templateParameter = (text: string): string => text.replace(/\s+/g, ' ').trim() || '-';

/**
 * Where the recipient reads the message: staff in their Hermes inbox; families in the families' app, at the
 * message (it asks them to sign in with their phone first). A student has neither: the families' app is
 * where their family reads it.
 */
const readLink = (publicUrl: string, message: Pick<Outgoing, 'messageId' | 'recipientKind'>): string =>
  message.recipientKind === 'funcionario'
    ? `${publicUrl}/inbox/message/${message.messageId}`
    : `${publicUrl}${pushMessageUrl(message.messageId)}`;

/** The template's three parameters in order: {{1}} the school, {{2}} the title, {{3}} the link. */
export const templateParameters = (
  publicUrl: string,
  message: Pick<Outgoing, 'institutionName' | 'title' | 'messageId' | 'recipientKind'>,
): [string, string, string] => [templateParameter(message.institutionName), templateParameter(message.title), readLink(publicUrl, message)];
