import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { Controller, Get, Head, Headers, Inject, Param, Post, Query, Req, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { isPostMessageCallback } from '@twofold/domain';
import { FastifyReply, FastifyRequest } from 'fastify';
import { pageLanguage } from '../../pages/i18n/languages';
import { ClientAddressResolver } from '../../http/client-address';
import { pageNonce, sendPage, sendPageHead } from '../../pages/send-page';
import { sendPagePoll } from '../../pages/page-poll';
import { ParsedBody } from '../../http/parsed-input';
import { AccessPageForm, parseAccessPageForm } from './access-page.form';
import { AccessPageOutcome, AccessPageService, Visitor } from './access-page.service';
import { renderAccessCode, renderAccessEnroll, renderAccessFinal, renderAccessGranted } from './access-page.view';
import { renderAccessApproval } from './access-page-approval.view';
import { FormBody, ModelEnvelopeErrors } from '../../http/route-rules';
import { ApiFeature, ApiPage } from '../../openapi/api-route';
import { ACCESS_PAGE_DOCS } from '../access.openapi';
import { APP_CONFIG } from '../../config/injection-tokens';
import { AppConfig } from '../../config/app-config';
import { AccessPageBinding } from './access-page-binding';

const FINAL_STATUS = {
  unknown: 404,
  expired: 410,
  used: 410,
  denied: 403,
  locked: 403,
  tooManyCodes: 403,
  noLicense: 403,
  noOtpFactor: 403,
  factorsDisabled: 403,
  networkDenied: 403,
  forged: 403,
} as const;

/**
 * `$ACCESS_URL/<id>`: HTML for people. No credentials: the unguessable request id is the key; the
 * form's anti-forgery token is bound to the request and to the browser that loaded the page (its
 * cookie), and a POST from another origin is refused (access-page-binding.ts). Registered after AccessRequestsController, so that
 * `/access/requests` is never taken for an id.
 */
@ModelEnvelopeErrors()
@Controller({ path: 'access', version: VERSION_NEUTRAL })
@ApiFeature('Pages')
export class AccessPageController {
  private readonly binding: AccessPageBinding;

  constructor(
    private readonly page: AccessPageService,
    private readonly addresses: ClientAddressResolver,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.binding = new AccessPageBinding(config.accessUrl);
  }

  /** Declared before the GET: otherwise the framework answers HEAD by running the GET, which changes the request. */
  @ApiExcludeEndpoint()
  @Head(':id')
  head(@Res() res: FastifyReply): void {
    sendPageHead(res);
  }

  /**
   * The page's long poll while it waits for the user's approval: `{status: "pending"}` at the poll's
   * bound (the page asks again), `{status: "decided"}` once there is an answer to apply (the page
   * posts its form). It changes nothing: the request id is the key, as for the page.
   */
  @ApiPage(ACCESS_PAGE_DOCS.approval)
  @Get(':id/approval')
  async approval(
    @Param('id') id: string,
    @Headers('accept-language') language: string | undefined,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ) {
    const status = await this.page.pollApproval(id, pageLanguage(language));
    // an unknown request: 'decided' makes the page post its form, which then shows what the page of that id shows
    sendPagePoll(
      req,
      res,
      status === 'unknown'
        ? { found: false, fields: { status: 'decided' }, message: 'No such sign-in request.' }
        : { found: true, fields: { status } },
    );
  }

  /** The enrolling page's check of its Telegram link: `{bound: true}` once the bot's /start bound the user's chat. */
  @ApiPage(ACCESS_PAGE_DOCS.telegram)
  @Get(':id/telegram')
  async telegram(@Param('id') id: string, @Query('link') link: string | undefined, @Req() req: FastifyRequest, @Res() res: FastifyReply) {
    const bound = await this.page.telegramBound(id, typeof link === 'string' ? link : '');
    sendPagePoll(
      req,
      res,
      bound === 'unknown'
        ? { found: false, fields: { bound: false }, message: 'No such sign-in request or Telegram link.' }
        : { found: true, fields: { bound } },
    );
  }

  /** The enrolling page's check of its app token: `{enrolled: true}` once the app registered a device with it. */
  @ApiPage(ACCESS_PAGE_DOCS.mobileApp)
  @Get(':id/mobile-app')
  async mobileApp(
    @Param('id') id: string,
    @Query('token') token: string | undefined,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ) {
    const enrolled = await this.page.mobileAppEnrolled(id, typeof token === 'string' ? token : '');
    sendPagePoll(
      req,
      res,
      enrolled === 'unknown'
        ? { found: false, fields: { enrolled: false }, message: 'No such sign-in request.' }
        : { found: true, fields: { enrolled } },
    );
  }

  @ApiPage(ACCESS_PAGE_DOCS.show)
  @Get(':id')
  async show(
    @Param('id') id: string,
    @Query('code') code: string | undefined,
    @Req() req: FastifyRequest,
    @Headers('accept-language') language: string | undefined,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const outcome = await this.page.show(id, this.visitor(id, req), pageLanguage(language), code !== undefined);
    send(res, outcome, this.cookies(id, outcome));
  }

  @ApiPage(ACCESS_PAGE_DOCS.submit)
  @FormBody()
  @Post(':id')
  async submit(
    @Param('id') id: string,
    @ParsedBody(parseAccessPageForm) form: AccessPageForm,
    @Req() req: FastifyRequest,
    @Headers('accept-language') language: string | undefined,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const outcome = await this.page.submit(id, form, this.visitor(id, req), pageLanguage(language));
    send(res, outcome, this.cookies(id, outcome));
  }

  private visitor(id: string, req: FastifyRequest): Visitor {
    return {
      ip: this.addresses.resolve(req.socket.remoteAddress, req.headers['x-forwarded-for']),
      browser: this.binding.presented(id, req.headers),
    };
  }

  /** The `Set-Cookie` of a page whose form is bound to its browser nonce. */
  private cookies(id: string, outcome: AccessPageOutcome): string[] {
    if (outcome.kind !== 'enroll' && outcome.kind !== 'code' && outcome.kind !== 'approval') return [];
    return [this.binding.setCookie(id, outcome.browserNonce, outcome.frameAncestors.length > 0)];
  }
}

/**
 * Strict CSP with a fresh nonce. The success page may run its one script: the auto-submit posting to
 * the callback's origin, or, for a postMessage callback, the fixed script handing the
 * token to `window.parent` (no form, so `form-action 'self'`); the enrollment view may run its Copy
 * button's script. Pages of a request meant for a frame may be framed by the origins the service
 * computed (the resource's frameOrigins, or `*`), without X-Frame-Options; every other page, the
 * unknown-id page included, refuses to be framed (`frame-ancestors 'none'` and `X-Frame-Options: DENY`).
 */
function send(res: FastifyReply, outcome: AccessPageOutcome, cookies: readonly string[]): void {
  const nonce = pageNonce();
  const postBack =
    outcome.kind === 'granted' && outcome.callback && !isPostMessageCallback(outcome.callback.action) ? outcome.callback : null;
  const policy = {
    // the callback auto-submit or the postMessage script, and the Copy button of the enrollment key
    scripts: (outcome.kind === 'granted' && Boolean(outcome.callback)) || outcome.kind === 'enroll' || outcome.kind === 'approval',
    formActionOrigin: postBack ? new URL(postBack.action).origin : undefined,
    frameAncestors: outcome.frameAncestors,
    // the approval view's long poll
    connectSelf: outcome.kind === 'approval' || (outcome.kind === 'enroll' && Boolean(outcome.model.telegram || outcome.model.mobileApp)),
  };
  switch (outcome.kind) {
    case 'enroll':
      sendPage(res, 200, nonce, policy, renderAccessEnroll(outcome.lang, nonce, outcome.brand, outcome.model), cookies);
      return;
    case 'code':
      sendPage(res, 200, nonce, policy, renderAccessCode(outcome.lang, nonce, outcome.brand, outcome.model), cookies);
      return;
    case 'approval':
      sendPage(res, 200, nonce, policy, renderAccessApproval(outcome.lang, nonce, outcome.brand, outcome.model), cookies);
      return;
    case 'granted':
      sendPage(
        res,
        200,
        nonce,
        policy,
        renderAccessGranted(outcome.lang, nonce, outcome.brand, outcome.callback, outcome.accessToken, outcome.frameAncestors),
      );
      return;
    case 'final':
      sendPage(res, FINAL_STATUS[outcome.reason], nonce, policy, renderAccessFinal(outcome.lang, nonce, outcome.brand, outcome.reason));
  }
}
