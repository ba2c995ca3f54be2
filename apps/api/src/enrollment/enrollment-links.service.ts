import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AccountId, Clock, DomainError } from '@twofold/domain';
import { EnrollmentSubject, EnrollmentTokensRepository } from '@twofold/persistence';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, CLOCK } from '../config/injection-tokens';
import { Mailer, MAILER } from '../mail/mailer';
import { MailText } from '../mail/messages';

export interface IssuedLink {
  url: string;
  expiresAt: Date;
}

export function hashEnrollmentToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * A link for the journal, or a request path for the log: the token is a credential, so only its first
 * 6 characters are kept, enough to tell links apart, never enough to use one. Paths match in any case,
 * as express routes them.
 */
export function redactedLink(url: string): string {
  return url.replace(/(\/enroll\/)([^/?#]{0,6})[^/?#]*/i, (_all, prefix: string, kept: string) => `${prefix}${kept}…`);
}

/**
 * Enrollment links (users) and invitations (administrators): a random single-use token, stored only
 * as its hash, opening `$ACCESS_URL/enroll/<token>`. A new link for a person revokes their older ones.
 */
@Injectable()
export class EnrollmentLinksService {
  private readonly logger = new Logger('EnrollmentLinks');

  constructor(
    private readonly tokens: EnrollmentTokensRepository,
    @Inject(MAILER) private readonly mailer: Mailer,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async issue(
    accountId: AccountId,
    subject: EnrollmentSubject,
    options: { ttlMinutes: number; email: string | null },
  ): Promise<IssuedLink> {
    const now = this.clock.now();
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + options.ttlMinutes * 60_000);
    await this.tokens.revokeOpen(accountId, subject, now);
    await this.tokens.insert(accountId, {
      tokenHash: hashEnrollmentToken(token),
      subject,
      email: options.email,
      createdAt: now,
      expiresAt,
    });
    return { url: `${this.config.accessUrl}/enroll/${token}`, expiresAt };
  }

  /** Sent inside the caller's transaction: when the mail cannot go out, no link is left behind. */
  async mail(to: string, mail: MailText): Promise<void> {
    try {
      await this.mailer.send({ to, subject: mail.subject, text: mail.text, html: mail.html });
    } catch (error) {
      this.logger.error({ err: error }, 'mail could not be sent');
      throw new DomainError('MAIL_NOT_SENT', 'The e-mail could not be sent. Try again later.');
    }
  }
}
