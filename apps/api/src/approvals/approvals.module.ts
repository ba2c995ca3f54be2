import { BeforeApplicationShutdown, Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Clock } from '@twofold/domain';
import { ApprovalsRepository } from '@twofold/persistence';
import { DataSource } from 'typeorm';
import { APP_CONFIG, CLOCK } from '../config/injection-tokens';
import { AppConfig } from '../config/app-config';
import { AppMetrics } from '../metrics/app-metrics';
import { ApprovalDecisionListener } from './approval-decision.listener';
import { ApprovalTransports } from './approval-transport';
import { ApprovalWaiter, REAL_TIMERS } from './approval-waiter';
import { ApprovalsService } from './approvals.service';
import { sessionConnectionConfig } from './listen-connection';

/**
 * Starts the listening connection and the poll with the application, and on shutdown answers every
 * held wait before the HTTP server drains: Nest calls `beforeApplicationShutdown` before it closes
 * the server (shutDown in app/shutdown.ts then waits for the requests in flight), so each waiting
 * call answers "restarting" and records its approval as Cancelled while the pool is still open.
 */
@Injectable()
export class ApprovalsLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    private readonly waiter: ApprovalWaiter,
    private readonly listener: ApprovalDecisionListener,
    private readonly approvals: ApprovalsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.waiter.start();
    await this.listener.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.approvals.shutdown();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.stop();
  }
}

/** Out-of-band approval (approvals.service.ts): the state machine's service, the waits, and the transports' registry. */
@Module({
  providers: [
    ApprovalTransports,
    {
      provide: ApprovalWaiter,
      useFactory: (approvals: ApprovalsRepository, clock: Clock, metrics: AppMetrics) =>
        new ApprovalWaiter(approvals, clock, REAL_TIMERS, (waits) => metrics.setApprovalsPending(waits)),
      inject: [ApprovalsRepository, CLOCK, AppMetrics],
    },
    {
      provide: ApprovalDecisionListener,
      useFactory: (dataSource: DataSource, config: AppConfig, waiter: ApprovalWaiter) =>
        new ApprovalDecisionListener(
          dataSource,
          () => sessionConnectionConfig(dataSource, config, 'twofold-approvals-listener'),
          (approvalId) => void waiter.heard(approvalId),
        ),
      inject: [DataSource, APP_CONFIG, ApprovalWaiter],
    },
    ApprovalsService,
    ApprovalsLifecycle,
  ],
  exports: [ApprovalsService, ApprovalTransports, ApprovalWaiter],
})
export class ApprovalsModule {}
