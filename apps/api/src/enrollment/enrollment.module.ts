import { Module } from '@nestjs/common';
import { StandbyCodesModule } from '../standby-codes/standby-codes.module';
import { AuthenticatorAppEnrollment } from './authenticator-app';
import { EnrollmentLinksService } from './enrollment-links.service';
import { EnrollmentPageController } from './enrollment-page.controller';
import { EnrollmentPageService } from './enrollment-page.service';
import { TelegramModule } from '../telegram/telegram.module';
import { MobileAppModule } from '../mobile-app/mobile-app.module';

@Module({
  imports: [TelegramModule, MobileAppModule, StandbyCodesModule],
  controllers: [EnrollmentPageController],
  providers: [EnrollmentLinksService, EnrollmentPageService, AuthenticatorAppEnrollment],
  exports: [EnrollmentLinksService, AuthenticatorAppEnrollment],
})
export class EnrollmentModule {}
