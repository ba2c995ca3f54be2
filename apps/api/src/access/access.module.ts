import { Module } from '@nestjs/common';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { IpListsModule } from '../ip-lists/ip-lists.module';
import { UsersModule } from '../users/users.module';
import { AccessPageController } from './page/access-page.controller';
import { AccessPageService } from './page/access-page.service';
import { AccessRequestsController } from './requests/access-requests.controller';
import { AccessRequestsService } from './requests/access-requests.service';
import { CodeLockouts } from './decision/code-lockouts';
import { AccessRequestRateGuard, AccessRequestThrottle } from './access-request-throttle';
import { RaRequestsController } from './ra/ra-requests.controller';
import { RaRequestsService } from './ra/ra-requests.service';

@Module({
  imports: [UsersModule, EnrollmentModule, IpListsModule],
  // order matters: /access/requests before the page's /access/:id
  controllers: [AccessRequestsController, RaRequestsController, AccessPageController],
  providers: [AccessRequestsService, RaRequestsService, AccessPageService, CodeLockouts, AccessRequestThrottle, AccessRequestRateGuard],
})
export class AccessModule {}
