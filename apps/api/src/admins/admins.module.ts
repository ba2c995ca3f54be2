import { Module } from '@nestjs/common';
import { AdminsController } from './admins.controller';
import { AdminsV2Controller } from './admins-v2.controller';
import { AdminsService } from './admins.service';
import { EnrollmentModule } from '../enrollment/enrollment.module';

@Module({
  imports: [EnrollmentModule],
  controllers: [AdminsController, AdminsV2Controller],
  providers: [AdminsService],
  exports: [AdminsService],
})
export class AdminsModule {}
