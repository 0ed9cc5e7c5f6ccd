// The reference server's e-mail outbox: without SMTP_URL every message is an .eml file in
// DATA_DIR/outbox (server/mail/mailer.ts). The journeys follow the links in them as a user would.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { OUTBOX_DIR } from './reference-server';

/** The pages the server's e-mails link to (server/services/invites.ts, server/handlers/auth.ts). */
export type MailedPage = '/approve-account' | '/new-password' | '/confirm-email';

interface Mail {
  headers: Map<string, string>;
  text: string;
}

// Soft line breaks go, =XX become bytes; the bytes are UTF-8 (nodemailer's charset for text parts).
function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeBody(body: string, transferEncoding: string | undefined): string {
  switch (transferEncoding?.toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body);
    case 'base64':
      return Buffer.from(body, 'base64').toString('utf8');
    default:
      return body;
  }
}

/** A single-part text message: headers (names in lower case, folded lines joined) and the decoded text. */
function parseMail(source: string): Mail {
  const [head, ...rest] = source.split(/\r?\n\r?\n/);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, text: decodeBody(rest.join('\n\n'), headers.get('content-transfer-encoding')) };
}

const isAddressedTo = (mail: Mail, address: string) =>
  (mail.headers.get('to') ?? '').toLowerCase().includes(address.toLowerCase());

function linkTo(mail: Mail, page: MailedPage): string | undefined {
  return mail.text.match(/https?:\/\/\S+/g)?.find((link) => new URL(link).pathname === page);
}

/** A received e-mail's text and its link to one of our pages. */
export interface MailedMessage {
  link: string;
  text: string;
}

async function newestMessage(address: string, page: MailedPage): Promise<MailedMessage | undefined> {
  const files = await readdir(OUTBOX_DIR).catch(() => [] as string[]);
  // File names start with the time of sending (Date.now()), so the newest sorts last.
  for (const file of files.filter((name) => name.endsWith('.eml')).sort().reverse()) {
    const mail = parseMail(await readFile(join(OUTBOX_DIR, file), 'utf8'));
    const link = isAddressedTo(mail, address) ? linkTo(mail, page) : undefined;
    if (link) return { link, text: mail.text };
  }
  return undefined;
}

/** The newest e-mail to `address` that links to `page`, waiting for it to arrive. */
export async function mailedMessage(address: string, page: MailedPage): Promise<MailedMessage> {
  let message: MailedMessage | undefined;
  await expect
    .poll(async () => (message = await newestMessage(address, page)), { message: `an e-mail to ${address} linking to ${page}` })
    .toBeTruthy();
  return message!;
}

/** The link to `page` in the newest e-mail to `address`, waiting for it to arrive. */
export async function mailedLink(address: string, page: MailedPage): Promise<string> {
  return (await mailedMessage(address, page)).link;
}

/** The newest e-mail to `address` whose subject is `subject`, waiting for it to arrive: its text. */
export async function mailedText(address: string, subject: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const files = await readdir(OUTBOX_DIR).catch(() => [] as string[]);
        for (const file of files.filter((name) => name.endsWith('.eml')).sort().reverse()) {
          const mail = parseMail(await readFile(join(OUTBOX_DIR, file), 'utf8'));
          if (isAddressedTo(mail, address) && decodeSubject(mail.headers.get('subject') ?? '') === subject) return (found = mail.text);
        }
        return undefined;
      },
      { message: `an e-mail to ${address} with the subject "${subject}"` },
    )
    .toBeTruthy();
  return found!;
}

/** An encoded-word subject (=?UTF-8?Q?...?= or =?UTF-8?B?...?=, RFC 2047) as text. */
function decodeSubject(subject: string): string {
  return subject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      kind.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}
