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
  /**
   * Prepares and sends a message after the caller's answer (null: nothing to send). Used where an answer
   * must not wait for work that only some requests do (a reset link for an existing account).
   */
  sendLater(prepare: () => Promise<MailMessage | null>): Promise<void>;
  /** Resolves once every message handed over so far is delivered or has failed (e-mails sent after an answer). */
  settled?(): Promise<void>;
}

const FROM = 'Macula Planner <no-reply@macula-planner.example>';

export function createMailer(options: {
  smtpUrl: string | null;
  outboxDir: string;
  log: (message: string) => void;
}): Mailer {
  return tracked(options.smtpUrl ? smtpMailer(options.smtpUrl) : outboxMailer(options.outboxDir, options.log));
}

function smtpMailer(smtpUrl: string): (message: MailMessage) => Promise<void> {
  const transport = nodemailer.createTransport(smtpUrl);
  return async (message) => {
    await transport.sendMail({ from: FROM, ...message });
  };
}

function outboxMailer(outboxDir: string, log: (message: string) => void): (message: MailMessage) => Promise<void> {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return async (message) => {
    const info = await transport.sendMail({ from: FROM, ...message });
    await mkdir(outboxDir, { recursive: true });
    const file = join(outboxDir, `${Date.now()}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`);
    await writeFile(file, info.message as Buffer);
    log(`E-mail "${message.subject}" to ${message.to} written to ${file}`);
  };
}

/** Keeps the messages in flight, so that `settled` can wait for those sent after an answer. */
function tracked(deliver: (message: MailMessage) => Promise<void>): Mailer {
  const inFlight = new Set<Promise<void>>();
  const track = (delivery: Promise<void>) => {
    inFlight.add(delivery);
    const forget = () => void inFlight.delete(delivery);
    delivery.then(forget, forget);
    return delivery;
  };
  return {
    send: (message) => track(deliver(message)),
    sendLater: (prepare) =>
      track(
        // A turn of the event loop first, so that the answer is written before the work starts.
        new Promise<void>((resolve) => setImmediate(resolve))
          .then(prepare)
          .then((message) => (message ? deliver(message) : undefined)),
      ),
    async settled() {
      await Promise.allSettled([...inFlight]);
    },
  };
}
