import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/injection-tokens';
import { AppConfig } from '../config/app-config';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { IpListsModule } from '../ip-lists/ip-lists.module';
import { UsersModule } from '../users/users.module';
import { ApprovalsModule } from '../approvals/approvals.module';
import { MobileAppModule } from '../mobile-app/mobile-app.module';
import { TelegramModule } from '../telegram/telegram.module';
import { PhoneCodesModule } from '../phone-codes/phone-codes.module';
import { AccessRequestRateGuard, AccessRequestThrottle } from './access-request-throttle';
import { AccessDecisionService } from './decision/access-decision.service';
import { ApprovalFactorCheck } from './decision/approval-factor.check';
import { ApprovalWait } from './decision/approval-wait';
import { CodeFactorCheck } from './decision/code-factor.check';
import { CodeLockouts } from './decision/code-lockouts';
import { PhoneCodeCheck } from './decision/phone-code.check';
import { StandbyCodeFactorCheck } from './decision/standby-code.check';
import { StandbyCodesModule } from '../standby-codes/standby-codes.module';
import { AccessFormTokens } from './page/access-form-token';
import { AccessPageAttempts } from './page/access-page.attempt';
import { AccessPageApprovals } from './page/access-page-approvals';
import { AccessPageController } from './page/access-page.controller';
import { AccessPageNewcomers } from './page/access-page-newcomers';
import { AccessPageService } from './page/access-page.service';
import { AccessPageViews } from './page/access-page-views';
import { AccessPageVisits } from './page/access-page-visits';
import { RaAttempts } from './ra/ra-attempts';
import { RaRequestsController } from './ra/ra-requests.controller';
import { RaRequestsService } from './ra/ra-requests.service';
import { AccessRequestsController } from './requests/access-requests.controller';
import { AccessRequestsService } from './requests/access-requests.service';
import { StaleAccessRequestsSweeper } from './requests/stale-access-requests.sweeper';

/**
 * Access requests, by entry point: requests/ (`POST /access/requests`, the history, the poll), ra/
 * (`POST /access/requests/ra`, `/ra/challenge`, `/md`) and page/ (`$ACCESS_URL/<id>`), each deciding
 * through decision/ (AccessDecisionService: one access decision for every way of signing in).
 */
@Module({
  imports: [
    UsersModule,
    EnrollmentModule,
    IpListsModule,
    ApprovalsModule,
    TelegramModule,
    MobileAppModule,
    PhoneCodesModule,
    StandbyCodesModule,
  ],
  // order matters: /access/requests before the page's /access/:id
  controllers: [AccessRequestsController, RaRequestsController, AccessPageController],
  providers: [
    AccessDecisionService,
    CodeFactorCheck,
    StandbyCodeFactorCheck,
    ApprovalFactorCheck,
    PhoneCodeCheck,
    ApprovalWait,
    CodeLockouts,
    AccessRequestsService,
    StaleAccessRequestsSweeper,
    RaAttempts,
    RaRequestsService,
    AccessPageService,
    AccessPageVisits,
    AccessPageNewcomers,
    AccessPageAttempts,
    AccessPageApprovals,
    AccessPageViews,
    { provide: AccessFormTokens, useFactory: (config: AppConfig) => new AccessFormTokens(config.encryptionKey), inject: [APP_CONFIG] },
    AccessRequestThrottle,
    AccessRequestRateGuard,
  ],
  // the self-service portals' reset, unlock and login-service sign-ins count against the same per-resource rate
  exports: [AccessRequestThrottle, AccessRequestRateGuard],
})
export class AccessModule {}
