import { Controller, Get, Inject, Param, Req, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/injection-tokens';
import { ApiFeature, ApiPage } from '../openapi/api-route';
import { builtAppDirectories, findBuiltApp, loadStaticFiles, redirectToFolder, sendStaticFile, StaticFile } from '../http/static-app-files';
import { AUTHENTICATOR_APP_DOCS } from './mobile-app.openapi';

/**
 * The page's policy: its own scripts, style, images, manifest and worker only, requests to its own
 * origin only (the device protocol), never framed (no clickjacking of the Approve button), no base
 * or form target to hijack. No inline script or style at all, so no nonce either.
 */
export const APP_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; manifest-src 'self'; " +
  "worker-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

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
  private readonly files: Map<string, StaticFile> | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const directory = config.authenticatorAppDir ?? findBuiltApp(builtAppDirectories('authenticator'));
    this.files = directory ? loadStaticFiles(directory) : null;
  }

  @ApiPage(AUTHENTICATOR_APP_DOCS.index)
  @Get()
  index(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    // the app's relative URLs (its script, sw.js, the manifest) need the folder's address
    if (!redirectToFolder(req.url, res)) this.send(res, 'index.html');
  }

  @ApiPage(AUTHENTICATOR_APP_DOCS.file)
  @Get(':file')
  file(@Param('file') name: string, @Res() res: FastifyReply): void {
    this.send(res, name);
  }

  private send(res: FastifyReply, name: string): void {
    sendStaticFile(res, this.files, name, { csp: APP_CONTENT_SECURITY_POLICY, notFound: APP_FILE_NOT_FOUND, notBuilt: APP_NOT_BUILT });
  }
}
