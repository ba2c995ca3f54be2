import { randomBytes } from 'node:crypto';
import { Body, Controller, Get, Headers, Param, Post, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { EnrollmentOutcome, EnrollmentPageService } from './enrollment-page.service';
import { pageLanguage, renderEnrollmentDone, renderEnrollmentForm, renderEnrollmentGone } from './enrollment-page.view';

const GONE_STATUS = { unknown: 404, expired: 410, used: 410, revoked: 410 } as const;

/** `$ACCESS_URL/enroll/<token>`: HTML for people, not JSON for clients; no credentials, the token is the key. */
@Controller({ path: 'access/enroll', version: VERSION_NEUTRAL })
export class EnrollmentPageController {
  constructor(private readonly enrollment: EnrollmentPageService) {}

  @Get(':token')
  async show(
    @Param('token') token: string,
    @Headers('accept-language') language: string | undefined,
    @Res() res: FastifyReply,
  ): Promise<void> {
    send(res, language, await this.enrollment.show(token));
  }

  @Post(':token')
  async submit(
    @Param('token') token: string,
    @Body() body: Record<string, unknown>,
    @Headers('accept-language') language: string | undefined,
    @Res() res: FastifyReply,
  ): Promise<void> {
    send(res, language, await this.enrollment.submit(token, body?.['code']));
  }
}

function send(res: FastifyReply, acceptLanguage: string | undefined, outcome: EnrollmentOutcome): void {
  const lang = pageLanguage(acceptLanguage);
  const nonce = randomBytes(16).toString('base64');
  res.header(
    'Content-Security-Policy',
    // the form's only script is the Copy button of the key, under the same nonce
    `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self'${outcome.kind === 'form' ? `; script-src 'nonce-${nonce}'` : ''}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  // the token is in the URL: never send it on as a referrer
  res.header('Referrer-Policy', 'no-referrer');
  res.header('X-Frame-Options', 'DENY');
  res.type('text/html; charset=utf-8');
  if (outcome.kind === 'form') res.status(200).send(renderEnrollmentForm(lang, nonce, outcome.model).text);
  else if (outcome.kind === 'done') res.status(200).send(renderEnrollmentDone(lang, nonce).text);
  else res.status(GONE_STATUS[outcome.reason]).send(renderEnrollmentGone(lang, nonce, outcome.reason).text);
}
