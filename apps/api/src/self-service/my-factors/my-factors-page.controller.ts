import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { Controller, Get, Head, Headers, Inject, Param, Post, Query, Req, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG } from '../../config/injection-tokens';
import { AppConfig } from '../../config/app-config';
import { REFUSALS } from '../../http/input-guard';
import { Input } from '../../http/parsed-input';
import { FormBody, ModelEnvelopeErrors } from '../../http/route-rules';
import { ApiFeature, ApiPage } from '../../openapi/api-route';
import { formField } from '../../pages/form-body';
import { pageLanguage } from '../../pages/i18n/languages';
import { pageNonce, sendPage, sendPageHead } from '../../pages/send-page';
import { MY_FACTORS_PAGE_TTL_MINUTES } from './my-factors-links';
import { MyFactorsForm, MyFactorsOutcome, MyFactorsPageService, MyFactorsVisitor } from './my-factors-page.service';
import {
  actionForm,
  renderMyFactorsEnroll,
  renderMyFactorsFinal,
  renderMyFactorsList,
  renderMyFactorsMobileApp,
  renderMyFactorsTelegram,
} from './my-factors.view';
import { sendPagePoll } from '../../pages/page-poll';
import { renderMyFactorsRecoveryCodes } from './my-factors-recovery.view';

const FINAL_STATUS = { unknown: 404, expired: 410, otherBrowser: 403, tooManyCodes: 403, forged: 403 } as const;

function parseMyFactorsForm(body: unknown): MyFactorsForm {
  return { action: formField(body, 'action'), code: formField(body, 'code'), id: formField(body, 'id'), name: formField(body, 'name') };
}

/**
 * `$ACCESS_URL/my-factors/<token>`: HTML for people, opened from a self-service portal. No
 * credentials: the token of the link, then the cookie of the browser that opened it first.
 */
@ModelEnvelopeErrors()
@Controller({ path: 'access/my-factors', version: VERSION_NEUTRAL })
@ApiFeature('Pages')
export class MyFactorsPageController {
  private readonly origin: string;
  private readonly secure: boolean;

  constructor(
    private readonly pages: MyFactorsPageService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const url = new URL(config.accessUrl);
    this.origin = url.origin;
    this.secure = url.protocol === 'https:';
  }

  /** Declared before the GET: HEAD (link previews) must not bind the page to a browser that is not the user's. */
  @ApiExcludeEndpoint()
  @Head(':token')
  head(@Res() res: FastifyReply): void {
    sendPageHead(res);
  }

  @ApiPage({
    summary: 'The "my factors" page\'s check of its Twofold Authenticator enrollment token (JSON)',
    description: 'Only for the browser the page is bound to. The page names the token by its id (`?token=`), never by the token itself.',
    statuses: {
      200: '`{"enrolled": true}` once the app registered a device of the page\'s user with the token, else `{"enrolled": false}`',
      404: 'unknown link, or another browser',
    },
  })
  @Get(':token/mobile-app')
  async mobileApp(
    @Param('token') token: string,
    @Query('token') tokenId: string | undefined,
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const enrolled = await this.pages.mobileAppEnrolled(token, this.visitor(req), typeof tokenId === 'string' ? tokenId : '');
    sendPagePoll(
      req,
      res,
      enrolled === 'unknown'
        ? { found: false, fields: { enrolled: false }, message: 'No such page.' }
        : { found: true, fields: { enrolled } },
    );
  }

  @ApiPage({
    summary: 'The "my factors" page a self-service portal opens',
    description: 'Bound to the first browser that opens it; changes need a code of a factor the user has.',
    statuses: {
      200: 'the page',
      403: 'opened in another browser, or closed after too many wrong codes',
      404: 'unknown link',
      410: 'expired',
    },
  })
  @Get(':token')
  async show(
    @Param('token') token: string,
    @Req() req: FastifyRequest,
    @Headers('accept-language') language: string | undefined,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const outcome = await this.pages.show(token, this.visitor(req), (nonce) => this.cookie(nonce));
    this.send(res, language, outcome);
  }

  @ApiPage({
    summary: 'A change on the "my factors" page',
    statuses: { 200: 'the page again', 403: 'another browser, another site, or too many wrong codes', 404: 'unknown link', 410: 'expired' },
    errors: { 400: REFUSALS.unstorable },
    form: {
      type: 'object',
      properties: {
        action: {
          type: 'string',
          enum: ['check', 'add-start', 'add-confirm', 'telegram-start', 'mobile-app-start', 'list', 'rename', 'remove', 'recovery-codes'],
        },
        code: { type: 'string' },
        id: { type: 'string' },
        name: { type: 'string' },
      },
    },
  })
  @FormBody()
  @Post(':token')
  async submit(
    @Param('token') token: string,
    @Input('body', parseMyFactorsForm) form: MyFactorsForm,
    @Req() req: FastifyRequest,
    @Headers('accept-language') language: string | undefined,
    @Res() res: FastifyReply,
  ): Promise<void> {
    this.send(res, language, await this.pages.submit(token, this.visitor(req), form));
  }

  private get cookieName(): string {
    return `${this.secure ? '__Host-' : ''}twofold-my-factors`;
  }

  private cookie(nonce: string): string {
    return `${this.cookieName}=${nonce}; Path=/; Max-Age=${MY_FACTORS_PAGE_TTL_MINUTES * 60}; HttpOnly${this.secure ? '; Secure' : ''}; SameSite=Strict`;
  }

  /** The page's cookie, and whether the request came from another site (`Sec-Fetch-Site`, else `Origin`). */
  private visitor(req: FastifyRequest): MyFactorsVisitor {
    const name = `${this.cookieName}=`;
    const values = (req.headers.cookie ?? '')
      .split(';')
      .map((pair) => pair.trim())
      .filter((pair) => pair.startsWith(name))
      .map((pair) => pair.slice(name.length));
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    const foreignOrigin = site !== undefined ? site !== 'same-origin' : origin !== undefined && origin !== 'null' && origin !== this.origin;
    return { cookieNonce: values.length === 1 ? values[0] : null, foreignOrigin };
  }

  private send(res: FastifyReply, acceptLanguage: string | undefined, outcome: MyFactorsOutcome): void {
    const lang = pageLanguage(acceptLanguage);
    const nonce = pageNonce();
    // the enrollment's only script is the Copy button of the key; the page is never framed
    // and the app offer's check of its token
    const policy = {
      scripts: outcome.kind === 'enroll' || outcome.kind === 'mobileApp',
      frameAncestors: [],
      connectSelf: outcome.kind === 'mobileApp',
    };
    const cookies = outcome.setCookie ? [outcome.setCookie] : [];
    if (outcome.kind === 'list') sendPage(res, 200, nonce, policy, renderMyFactorsList(lang, nonce, outcome.brand, outcome.model), cookies);
    else if (outcome.kind === 'telegram')
      sendPage(res, 200, nonce, policy, renderMyFactorsTelegram(lang, nonce, outcome.brand, outcome.model), cookies);
    else if (outcome.kind === 'mobileApp')
      sendPage(res, 200, nonce, policy, renderMyFactorsMobileApp(lang, nonce, outcome.brand, outcome.model), cookies);
    else if (outcome.kind === 'recoveryCodes')
      sendPage(res, 200, nonce, policy, renderMyFactorsRecoveryCodes(lang, nonce, outcome.brand, outcome.codes, actionForm), cookies);
    else if (outcome.kind === 'enroll')
      sendPage(res, 200, nonce, policy, renderMyFactorsEnroll(lang, nonce, outcome.brand, outcome.model), cookies);
    else
      sendPage(res, FINAL_STATUS[outcome.reason], nonce, policy, renderMyFactorsFinal(lang, nonce, outcome.brand, outcome.reason), cookies);
  }
}
