import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Header, VERSION_NEUTRAL } from '@nestjs/common';
import { FAVICON } from './page-assets';

/** A day: the icon changes with a release at most, and browsers ask for it on every page visit otherwise. */
const FAVICON_MAX_AGE_SECONDS = 24 * 60 * 60;

/** `/favicon.ico`: browsers ask for it on every visit of a page; without it each visit logs a 404. No credentials. */
@ApiExcludeController()
@Controller({ path: 'favicon.ico', version: VERSION_NEUTRAL })
export class FaviconController {
  @Get()
  @Header('Content-Type', 'image/x-icon')
  @Header('Cache-Control', `public, max-age=${FAVICON_MAX_AGE_SECONDS}`)
  icon(): Buffer {
    return FAVICON;
  }
}
