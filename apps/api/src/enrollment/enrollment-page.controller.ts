import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { Controller, Get, Head, Headers, Param, Post, Query, Req, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { pageNonce, sendPage, sendPageHead } from '../pages/send-page';
import { sendPagePoll } from '../pages/page-poll';
import { Input } from '../http/parsed-input';
import { EnrollmentPageForm, parseEnrollmentPageForm } from './enrollment-page.form';
import { EnrollmentOutcome, EnrollmentPageService } from './enrollment-page.service';
import { pageLanguage } from '../pages/i18n/languages';
import { renderEnrollmentDone, renderEnrollmentForm, renderEnrollmentGone } from './enrollment-page.view';
import { FormBody, ModelEnvelopeErrors } from '../http/route-rules';
import { ApiFeature, ApiPage } from '../openapi/api-route';
import { ENROLLMENT_PAGE_DOCS } from './enrollment.openapi';

const GONE_STATUS = { unknown: 404, expired: 410, used: 410, revoked: 410 } as const;

/** `$ACCESS_URL/enroll/<token>`: HTML for people, not JSON for clients; no credentials, the token is the key. */
@ModelEnvelopeErrors()
@Controller({ path: 'access/enroll', version: VERSION_NEUTRAL })
@ApiFeature('Pages')
export class EnrollmentPageController {
  constructor(private readonly enrollment: EnrollmentPageService) {}

  /** Declared before the GET: otherwise the framework answers HEAD by running the GET, which makes the key the page offers. */
  @ApiExcludeEndpoint()
  @Head(':token')
  head(@Res() res: FastifyReply): void {
    sendPageHead(res);
  }

  /** The page's check of its Telegram link: `{bound: true}` once the bot's /start bound the user's chat. */
  @ApiPage(ENROLLMENT_PAGE_DOCS.telegram)
  @Get(':token/telegram')
  async telegram(
    @Param('token') token: string,
    @Query('link') link: string | undefined,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ) {
    const bound = await this.enrollment.telegramBound(token, typeof link === 'string' ? link : '');
    sendPagePoll(
      req,
      res,
      bound === 'unknown'
        ? { found: false, fields: { bound: false }, message: 'No such enrollment link or Telegram link.' }
        : { found: true, fields: { bound } },
    );
  }

  /** The page's check of its app token: `{enrolled: true}` once the app registered a device with it. */
  @ApiPage(ENROLLMENT_PAGE_DOCS.mobileApp)
  @Get(':token/mobile-app')
  async mobileApp(
    @Param('token') token: string,
    @Query('token') tokenId: string | undefined,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ) {
    const enrolled = await this.enrollment.mobileAppEnrolled(token, typeof tokenId === 'string' ? tokenId : '');
    sendPagePoll(
      req,
      res,
      enrolled === 'unknown'
        ? { found: false, fields: { enrolled: false }, message: 'No such enrollment link.' }
        : { found: true, fields: { enrolled } },
    );
  }

  @ApiPage(ENROLLMENT_PAGE_DOCS.show)
  @Get(':token')
  async show(
    @Param('token') token: string,
    @Headers('accept-language') language: string | undefined,
    @Res() res: FastifyReply,
  ): Promise<void> {
    send(res, language, await this.enrollment.show(token));
  }

  @ApiPage(ENROLLMENT_PAGE_DOCS.submit)
  @FormBody()
  @Post(':token')
  async submit(
    @Param('token') token: string,
    @Input('body', parseEnrollmentPageForm) form: EnrollmentPageForm,
    @Headers('accept-language') language: string | undefined,
    @Res() res: FastifyReply,
  ): Promise<void> {
    send(res, language, await this.enrollment.submit(token, form));
  }
}

function send(res: FastifyReply, acceptLanguage: string | undefined, outcome: EnrollmentOutcome): void {
  const lang = pageLanguage(acceptLanguage);
  const nonce = pageNonce();
  // the form's only script is the Copy button of the key; no page of an enrollment link may be framed
  // and the Telegram and app offers' checks of their link and token
  const connectSelf = outcome.kind === 'form' && Boolean(outcome.telegram || outcome.mobileApp);
  const policy = { scripts: outcome.kind === 'form', frameAncestors: [], connectSelf };
  if (outcome.kind === 'form')
    sendPage(res, 200, nonce, policy, renderEnrollmentForm(lang, nonce, outcome.brand, outcome.model, outcome.telegram, outcome.mobileApp));
  else if (outcome.kind === 'done')
    sendPage(res, 200, nonce, policy, renderEnrollmentDone(lang, nonce, outcome.brand, outcome.recoveryCodes));
  else sendPage(res, GONE_STATUS[outcome.reason], nonce, policy, renderEnrollmentGone(lang, nonce, outcome.brand, outcome.reason));
}
