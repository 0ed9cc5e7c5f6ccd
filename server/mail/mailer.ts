// E-mail through nodemailer to SMTP_URL; without it, each message is written as an .eml file to
// DATA_DIR/outbox, where a developer or a test reads its links. The log names the file, never a link:
// invite and reset links carry live one-time tokens, and logs are read by more people than mailboxes.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

const FROM = 'Macula Planner <no-reply@macula-planner.example>';

export function createMailer(options: {
  smtpUrl: string | null;
  outboxDir: string;
  log: (message: string) => void;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: FROM, ...message });
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: FROM, ...message });
      await mkdir(options.outboxDir, { recursive: true });
      const file = join(options.outboxDir, `${Date.now()}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
      await writeFile(file, info.message as Buffer);
      options.log(`E-mail "${message.subject}" to ${message.to} written to ${file}`);
    },
  };
}
