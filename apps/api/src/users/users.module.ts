import { Module } from '@nestjs/common';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { UserRegistrationService } from './user-registration.service';

@Module({ imports: [EnrollmentModule], controllers: [], providers: [UserRegistrationService], exports: [UserRegistrationService] })
export class UsersModule {}
