// The transport of the account e-mails (invitations, password resets), sent at once through the e-mail path
// the channel uses (SMTP, or an .eml file in the outbox without SMTP_URL): they are not messages of a school,
// so they skip the delivery queue.
import type { ServerConfig } from '../config';
import { createEmailAdapter, type EmailAdapter } from '../delivery/email';

export type Mailer = Pick<EmailAdapter, 'send'>;

/** One adapter per app, opened at the first e-mail, so a server that sends none opens nothing. */
export function lazyMailer(config: Pick<ServerConfig, 'smtpUrl' | 'outboxDir' | 'mailFrom'>): Mailer {
  let adapter: EmailAdapter | null = null;
  return {
    send: (message) => {
      adapter ??= createEmailAdapter({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.mailFrom });
      return adapter.send(message);
    },
  };
}
