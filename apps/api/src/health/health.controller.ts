import { Controller, Get, HttpCode, VERSION_NEUTRAL } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseHealth } from '../http/database-health';
import { ApiFeature, ApiRoute } from '../openapi/api-route';
import { HEALTH_DOCS } from './health.openapi';

/**
 * Readiness for load balancers and the container healthcheck: no credentials, one trivial statement.
 * When the database cannot answer within the pool's timeouts the error reaches ApiExceptionFilter,
 * which answers 503 with Retry-After like any other request during an outage. `/ping` stays liveness.
 */
@Controller({ path: 'health', version: VERSION_NEUTRAL })
@ApiFeature('Health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly health: DatabaseHealth,
  ) {}

  @ApiRoute(HEALTH_DOCS.ready)
  @Get('ready')
  @HttpCode(200)
  async ready(): Promise<{ status: 'ready' }> {
    await this.dataSource.query('SELECT 1');
    this.health.available();
    return { status: 'ready' };
  }
}
