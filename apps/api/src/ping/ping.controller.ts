import { Controller, Get, VERSION_NEUTRAL } from '@nestjs/common';
import { ApiFeature, ApiRoute } from '../openapi/api-route';
import { PING_DOCS } from './ping.openapi';

/** Liveness for load balancers and the container healthcheck; no credentials, no database. */
@Controller({ path: 'ping', version: VERSION_NEUTRAL })
@ApiFeature('Health')
export class PingController {
  @ApiRoute(PING_DOCS.ping)
  @Get()
  ping(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
