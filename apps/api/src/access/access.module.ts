import { Module } from '@nestjs/common';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { IpListsModule } from '../ip-lists/ip-lists.module';
import { UsersModule } from '../users/users.module';
import { AccessPageController } from './access-page.controller';
import { AccessPageService } from './access-page.service';
import { AccessRequestsController } from './access-requests.controller';
import { AccessRequestsService } from './access-requests.service';
import { CodeLockouts } from './code-lockouts';
import { AccessRequestRateGuard, AccessRequestThrottle } from './access-request-throttle';
import { RaRequestsController } from './ra-requests.controller';
import { RaRequestsService } from './ra-requests.service';

@Module({
  imports: [UsersModule, EnrollmentModule, IpListsModule],
  // order matters: /access/requests before the page's /access/:id
  controllers: [AccessRequestsController, RaRequestsController, AccessPageController],
  providers: [AccessRequestsService, RaRequestsService, AccessPageService, CodeLockouts, AccessRequestThrottle, AccessRequestRateGuard],
})
export class AccessModule {}
