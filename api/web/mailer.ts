// Mail the dashboard sends (password-reset links). There is no mail server: the default Mailer logs
// the message with its link, which is how a developer or operator reaches it; production plugs in a
// real one through WebOptions.mailer. Tests use the in-memory outbox.
import type { Logger } from '../../runtime/logger.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the message is about. */
  link: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export function logMailer(log: Logger): Mailer {
  return {
    async send(message) {
      log.info({ to: message.to, subject: message.subject, link: message.link }, 'mail (not sent: no mail server configured)');
    },
  };
}

export interface MemoryMailer extends Mailer {
  outbox: MailMessage[];
}

export function memoryMailer(): MemoryMailer {
  const outbox: MailMessage[] = [];
  return {
    outbox,
    async send(message) {
      outbox.push(message);
    },
  };
}
