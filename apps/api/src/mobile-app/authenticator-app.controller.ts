import { Controller, Get, Inject, NotFoundException, Param, Req, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/injection-tokens';
import { ApiFeature, ApiPage } from '../openapi/api-route';
import { APP_CONTENT_SECURITY_POLICY, AppFile, findAppDirectory, loadAppFiles } from './authenticator-app.files';
import { AUTHENTICATOR_APP_DOCS } from './mobile-app.openapi';

export const APP_FILE_NOT_FOUND = 'The authenticator app has no such file.';
export const APP_NOT_BUILT = 'The authenticator app is not built (npm run build).';

/**
 * `$ACCESS_URL/app/`: the service's authenticator app (a PWA), static files of the build. Enrollment
 * links open `$ACCESS_URL/app/#enroll=<token>`: the token is in the fragment, which the browser never
 * sends, so it reaches no server log and no Referer. Every file goes with the app's strict CSP. The
 * service worker lives in the app's folder, so its scope is the folder without Service-Worker-Allowed.
 * Registered under `access/app`: a static path, which the router prefers to the access page's `access/:id`.
 */
@Controller({ path: 'access/app', version: VERSION_NEUTRAL })
@ApiFeature('Mobile app')
export class AuthenticatorAppController {
  private readonly files: Map<string, AppFile> | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const directory = config.authenticatorAppDir ?? findAppDirectory();
    this.files = directory ? loadAppFiles(directory) : null;
  }

  @ApiPage(AUTHENTICATOR_APP_DOCS.index)
  @Get()
  index(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    // the app's relative URLs (its script, sw.js, the manifest) need the folder's address
    const path = req.url.split('?')[0];
    if (!path.endsWith('/')) {
      res.header('Cache-Control', 'no-cache').redirect(`${path.slice(path.lastIndexOf('/') + 1)}/`, 301);
      return;
    }
    this.send(res, 'index.html');
  }

  @ApiPage(AUTHENTICATOR_APP_DOCS.file)
  @Get(':file')
  file(@Param('file') name: string, @Res() res: FastifyReply): void {
    this.send(res, name);
  }

  private send(res: FastifyReply, name: string): void {
    res.header('Content-Security-Policy', APP_CONTENT_SECURITY_POLICY);
    res.header('X-Frame-Options', 'DENY');
    res.header('Referrer-Policy', 'no-referrer');
    const file = this.files?.get(name);
    // the service's usual error body (message, traceId), with the headers above
    if (!file) throw new NotFoundException(this.files ? APP_FILE_NOT_FOUND : APP_NOT_BUILT);
    res.header('Cache-Control', file.cacheControl).type(file.contentType).status(200).send(file.bytes);
  }
}
