import { Inject, Injectable } from '@nestjs/common';
import { pageRequestRow } from './page-request-row';
import {
  AccessRequestInput,
  AccountId,
  Clock,
  effectiveAccessStatus,
  ErrorMessages,
  isSettledDay,
  NotFound,
  requireUuid,
} from '@twofold/domain';
import { AccessRequestEntity, AccessRequestsRepository } from '@twofold/persistence';
import { APP_CONFIG, CLOCK } from '../../config/injection-tokens';
import { ResourcePrincipal } from '../../auth/principal';
import { AppConfig } from '../../config/app-config';
import { AppMetrics } from '../../metrics/app-metrics';
import { ModelEnvelope, ok, PagedModel, pagedModel, refused } from '../../http/envelope';
import { AccessRequestDto, CreatedAccessRequestDto, toAccessRequestDto } from './access-requests.dto';
import { AccessHistoryQuery } from './access-history.query';

/**
 * The API side of access requests: create, poll and history. The browserless `ra`
 * family is RaRequestsService.
 */
@Injectable()
export class AccessRequestsService {
  constructor(
    private readonly requests: AccessRequestsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: AppMetrics,
  ) {}

  /**
   * POST /access/requests. An identity the account does not know while every licence is in use gets
   * no request: 200 `{success: false, message: 'Users quota exceeded'}`, which clients
   * match on; a known identity always gets its request.
   */
  async create(principal: ResourcePrincipal, input: AccessRequestInput): Promise<ModelEnvelope<CreatedAccessRequestDto | null>> {
    const id = await this.requests.insertForKnownOrRegistrable(
      principal.accountId,
      pageRequestRow(principal.resourceId, input, this.clock.now()),
    );
    this.metrics.accessRequestCreated('page', id === null ? 'refused' : 'AwaitingAuthentication');
    if (id === null) return refused(ErrorMessages.usersQuotaExceeded);
    return ok({ id, url: `${this.config.accessUrl}/${id}`, status: 'AwaitingAuthentication' });
  }

  /** Polling by the resource's server: any request of the resource's account; others are 404. */
  async find(principal: ResourcePrincipal, id: string): Promise<ModelEnvelope<AccessRequestDto>> {
    const row = await this.requests.findById(principal.accountId, requireUuid(id, 'Access request'));
    if (!row) throw new NotFound('Access request');
    await this.persistExpiry(row);
    const names = await this.requests.resourceNames(principal.accountId, [row.resourceId]);
    return ok(toAccessRequestDto(row, names.get(row.resourceId) ?? null, this.clock.now()));
  }

  /**
   * GET /access/requests: one past UTC day of the account's history. A read writes nothing: a request
   * left awaiting past its expiry is shown Expired (effectiveAccessStatus), and StaleAccessRequestsSweeper
   * writes it so.
   */
  async history(accountId: AccountId, { day, page, identity }: AccessHistoryQuery): Promise<ModelEnvelope<PagedModel<AccessRequestDto>>> {
    const now = this.clock.now();
    const [rows, total] = await this.requests.list(accountId, { day, settled: isSettledDay(day, now), identity }, page);
    return ok(pagedModel(rows, total, page, (row) => toAccessRequestDto(row, row.resourceName, now)));
  }

  /** A request found awaiting past its expiry is written as Expired when it is read. */
  private async persistExpiry(row: AccessRequestEntity): Promise<void> {
    if (row.status === 'AwaitingAuthentication' && effectiveAccessStatus(row, this.clock.now()) === 'Expired') {
      await this.requests.decide(row.accountId, row.id, 'Expired');
      row.status = 'Expired';
    }
  }
}
