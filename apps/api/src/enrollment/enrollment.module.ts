import { Module } from '@nestjs/common';
import { EnrollmentLinksService } from './enrollment-links.service';
import { EnrollmentPageController } from './enrollment-page.controller';
import { EnrollmentPageService } from './enrollment-page.service';

@Module({ controllers: [EnrollmentPageController], providers: [EnrollmentLinksService, EnrollmentPageService], exports: [EnrollmentLinksService] })
export class EnrollmentModule {}
