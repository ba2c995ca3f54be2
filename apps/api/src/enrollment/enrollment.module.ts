import { Module } from '@nestjs/common';
import { EnrollmentLinksService } from './enrollment-links.service';

@Module({ providers: [EnrollmentLinksService], exports: [EnrollmentLinksService] })
export class EnrollmentModule {}
