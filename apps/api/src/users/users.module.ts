import { Module } from '@nestjs/common';
import { EnrollmentModule } from '../enrollment/enrollment.module';
import { UserRegistrationService } from './user-registration.service';
import { UsersV2Controller } from './users-v2.controller';
import { UsersV3Controller } from './users-v3.controller';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({
  imports: [EnrollmentModule],
  controllers: [UsersController, UsersV2Controller, UsersV3Controller],
  providers: [UserRegistrationService, UsersService],
  exports: [UserRegistrationService],
})
export class UsersModule {}
