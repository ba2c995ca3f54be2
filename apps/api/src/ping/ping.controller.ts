import { Controller, Get, VERSION_NEUTRAL } from '@nestjs/common';

/** Liveness for load balancers and the container healthcheck; no credentials, no database. */
@Controller({ path: 'ping', version: VERSION_NEUTRAL })
export class PingController {
  @Get()
  ping(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
