/**
 * Outgoing email, as an adapter. Services send through `mailer()`; what it is depends on where the
 * server runs:
 *   - development and tests: `loggingMailer` writes each message to the log (console.info, with the
 *     address), so a developer reads the verification token there;
 *   - production: `unconfiguredMailer` unless a transport was installed: every send is refused
 *     with 503 EMAIL_NOT_CONFIGURED ("email verification is not configured"), so nothing that
 *     needs a mail pretends to have sent one. A deployment installs its transport at start
 *     (instrumentation.ts) with `setMailer(transport)`: any TMailer (an SMTP client, a provider's
 *     HTTP API), whose send resolves once the message is accepted and throws otherwise.
 *   - tests that read what was sent install `createMemoryMailer()`.
 * I/O: whatever the installed transport does; the logging and memory mailers only log or keep.
 */
import 'server-only';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';

export type TMail = { to: string; subject: string; text: string };

export type TMailer = {
  /** A short name for logs: 'log', 'memory', 'unconfigured', or the transport's own. */
  kind: string;
  send(mail: TMail): Promise<void>;
};

export const loggingMailer: TMailer = {
  kind: 'log',
  async send(mail) {
    console.info(`[mail] to ${mail.to}: ${mail.subject}\n${mail.text}`);
  },
};

export const unconfiguredMailer: TMailer = {
  kind: 'unconfigured',
  async send() {
    throw new AppError('EMAIL_NOT_CONFIGURED', 'Email verification is not configured on this server');
  },
};

/** Keeps every message in `sent` (tests read verification tokens there). */
export function createMemoryMailer() {
  const sent: TMail[] = [];
  const mailer: TMailer & { sent: TMail[] } = {
    kind: 'memory',
    sent,
    async send(mail) {
      sent.push(mail);
    },
  };
  return mailer;
}

let installed: TMailer | undefined;

/** The mailer in use: the installed transport, else logging outside production, else refusing. */
export function mailer(): TMailer {
  return installed ?? (env().isProduction ? unconfiguredMailer : loggingMailer);
}

/** Installs a transport (a deployment at start, a test); undefined returns to the default. */
export function setMailer(m: TMailer | undefined) {
  installed = m;
}
