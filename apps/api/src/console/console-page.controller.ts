import { Controller, Get, Inject, Param, Req, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/injection-tokens';
import { ApiFeature, ApiPage } from '../openapi/api-route';
import { CONSOLE_PAGE_DOCS } from './console.openapi';
import { builtAppDirectories, findBuiltApp, loadStaticFiles, redirectToFolder, sendStaticFile, StaticFile } from '../http/static-app-files';

/**
 * The console's policy: its own script, style and icon only, calls to its own origin only, never
 * framed, no form target or base to hijack. No inline script or style at all, so no nonce either.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** `$PUBLIC_URL/console/`: the administrators' console (apps/console), the static files of its build. */
@ApiFeature('Console')
@Controller({ path: 'console', version: VERSION_NEUTRAL })
export class ConsolePageController {
  private readonly files: Map<string, StaticFile> | null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const directory = config.consoleAppDir ?? findBuiltApp(builtAppDirectories('console'));
    this.files = directory ? loadStaticFiles(directory) : null;
  }

  @ApiPage(CONSOLE_PAGE_DOCS.page)
  @Get()
  index(@Req() req: FastifyRequest, @Res() res: FastifyReply): void {
    if (!redirectToFolder(req.url, res)) this.send(res, 'index.html');
  }

  @ApiPage(CONSOLE_PAGE_DOCS.pageFile)
  @Get(':file')
  file(@Param('file') name: string, @Res() res: FastifyReply): void {
    this.send(res, name);
  }

  private send(res: FastifyReply, name: string): void {
    sendStaticFile(res, this.files, name, {
      csp: CONSOLE_CONTENT_SECURITY_POLICY,
      notFound: 'The console has no such file.',
      notBuilt: 'The console is not built (npm run build).',
    });
  }
}
