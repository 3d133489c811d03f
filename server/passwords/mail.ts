// The e-mails of passwords, sent at once through the e-mail path the channel uses (SMTP, or an .eml file in
// the outbox without SMTP_URL): they are not messages of a school, so they skip the delivery queue.
import type { ServerConfig } from '../config';
import { createEmailAdapter, type EmailAdapter } from '../delivery/email';

export type Mailer = Pick<EmailAdapter, 'send'>;

/** One adapter per app, opened at the first e-mail. */
export function lazyMailer(config: Pick<ServerConfig, 'smtpUrl' | 'outboxDir' | 'mailFrom'>): Mailer {
  let adapter: EmailAdapter | null = null;
  return {
    send: (message) => {
      adapter ??= createEmailAdapter({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.mailFrom });
      return adapter.send(message);
    },
  };
}

/** «Restablece tu contraseña»: the link, how long it works, and what to do when it was not you. */
export function resetMail({ to, name, link }: { to: string; name: string; link: string }) {
  return {
    to,
    subject: 'Restablece tu contraseña de Hermes',
    text: [
      `Hola, ${name}:`,
      '',
      'Recibimos una solicitud para restablecer la contraseña de tu cuenta de Hermes. Para elegir una nueva, abre este enlace:',
      '',
      link,
      '',
      'El enlace funciona una sola vez y durante 1 hora. Al cambiar la contraseña se cerrarán todas tus sesiones abiertas.',
      '',
      'Si no lo pediste tú, ignora este correo: tu contraseña no cambiará.',
    ].join('\n'),
  };
}
