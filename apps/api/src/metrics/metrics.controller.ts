import { Controller, Get, Inject, NotFoundException, Req, Res, VERSION_NEUTRAL } from '@nestjs/common';
import { ApiProduces } from '@nestjs/swagger';
import { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG } from '../config/injection-tokens';
import { AppConfig, DEFAULT_METRICS_ALLOW } from '../config/app-config';
import { ClientAddressResolver } from '../http/client-address';
import { ApiFeature, ApiRoute } from '../openapi/api-route';
import { AppMetrics } from './app-metrics';
import { METRICS_DOCS } from './metrics.openapi';

/**
 * For a Prometheus inside the deployment: no credentials (scrapers rarely carry the account's), but
 * only clients of METRICS_ALLOW, each resolved behind TRUSTED_PROXIES like any client. Another client
 * gets the 404 of an unknown path, so the endpoint is not advertised to the internet.
 */
@Controller({ path: 'metrics', version: VERSION_NEUTRAL })
@ApiFeature('Health')
export class MetricsController {
  private readonly allowed: ClientAddressResolver;

  constructor(
    private readonly metrics: AppMetrics,
    private readonly addresses: ClientAddressResolver,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // the resolver's matcher of addresses and ranges, here over the allowed scrapers
    this.allowed = new ClientAddressResolver(config.metrics?.allow ?? DEFAULT_METRICS_ALLOW);
  }

  @ApiRoute(METRICS_DOCS.scrape)
  @ApiProduces('text/plain')
  @Get()
  async scrape(@Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const client = this.addresses.resolve(req.socket.remoteAddress, req.headers['x-forwarded-for']);
    if (!this.allowed.isTrusted(client)) throw new NotFoundException(`Cannot GET ${req.url}`);
    await res.header('content-type', this.metrics.contentType).send(await this.metrics.scrape());
  }
}
