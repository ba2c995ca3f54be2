import { Controller, Get, VERSION_NEUTRAL } from '@nestjs/common';
import { TWOFOLD_VERSION } from '@twofold/domain';
import { ApiFeature, ApiRoute } from '../openapi/api-route';
import { PING_DOCS } from './ping.openapi';

/**
 * Liveness for load balancers and the container healthcheck; no credentials, no database. It names
 * the version running, which an operator checks after an upgrade (the code is public: the version
 * tells an attacker nothing the image does not).
 */
@Controller({ path: 'ping', version: VERSION_NEUTRAL })
@ApiFeature('Health')
export class PingController {
  @ApiRoute(PING_DOCS.ping)
  @Get()
  ping(): { status: 'ok'; version: string } {
    return { status: 'ok', version: TWOFOLD_VERSION };
  }
}
