// The invitation e-mail: what it says and how it leaves. It goes out at once through the e-mail channel's
// transport (SMTP_URL, or an .eml file in the outbox without it), not through the delivery queue: it is no
// school message, has no recipients to report on, and the administrator wants to know now whether it left.
import { invitationPagePath } from '../../shared/staff-contract';
import type { ServerConfig } from '../config';
import { mailWithLogo } from '../school-logo/logo-html';
import { lazyMailer } from '../mail/transport';
import type { Logger } from '../log';

interface InvitationMail {
  to: string;
  name: string;
  school: string;
  /** Who invites; null for the operators' command line (no one of the school). */
  inviter: string | null;
  token: string;
  expiresAt: Date;
  locale: string;
  timezone: string;
  /** The school's logo, shown above the text in an HTML alternative; null without one. */
  logo: { content: Buffer; contentType: string } | null;
}

/** Sends account e-mails; false when the mail server refused or could not be reached. */
export interface AccountMailer {
  sendInvitation(mail: InvitationMail): Promise<boolean>;
}

/** The link a new colleague opens: the SPA's invitation page on this server's public address. */
const invitationLink = (publicUrl: string, token: string): string => `${publicUrl}${invitationPagePath(token)}`;

function invitationText(mail: InvitationMail, publicUrl: string): { subject: string; text: string } {
  const until = new Intl.DateTimeFormat(mail.locale, { dateStyle: 'long', timeStyle: 'short', timeZone: mail.timezone }).format(
    mail.expiresAt,
  );
  return {
    subject: `Invitación a Hermes de ${mail.school}`,
    text: [
      `Hola, ${mail.name}:`,
      '',
      `${mail.inviter === null ? 'Te invitamos' : `${mail.inviter} te invitó`} a usar Hermes, la mensajería de ${mail.school}, con este correo (${mail.to}).`,
      '',
      'Para activar tu cuenta, abre este enlace y elige tu contraseña:',
      invitationLink(publicUrl, mail.token),
      '',
      `El enlace sirve una sola vez y vence el ${until}. Si vence, pide ${mail.inviter === null ? 'a quien administra Hermes en tu institución' : 'a la administración'} que te envíe uno nuevo.`,
      'Si no esperabas esta invitación, puedes ignorar este correo.',
    ].join('\n'),
  };
}

/** The mailer of a server: the transport is made at the first e-mail, so a server that sends none opens nothing. */
export function accountMailer(
  config: Pick<ServerConfig, 'smtpUrl' | 'outboxDir' | 'mailFrom' | 'publicUrl'>,
  logger: Logger,
): AccountMailer {
  const transport = lazyMailer(config);
  return {
    async sendInvitation(mail) {
      const { subject, text } = invitationText(mail, config.publicUrl);
      try {
        await transport.send(mailWithLogo({ to: mail.to, subject, text }, mail.school, mail.logo));
        return true;
      } catch (err) {
        // The fault, not the person (their address stays out of the log).
        logger.error('Correo de invitación: no se pudo enviar', err);
        return false;
      }
    },
  };
}
