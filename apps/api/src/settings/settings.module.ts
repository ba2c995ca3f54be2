import { Module } from '@nestjs/common';
import { IdentityFormatController } from './identity-format.controller';
import { ApplyProgressRegistry } from './identity-format-progress';
import { IdentityFormatService } from './identity-format.service';
import { SettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

@Module({
  controllers: [SettingsController, IdentityFormatController],
  providers: [SettingsService, IdentityFormatService, ApplyProgressRegistry],
})
export class SettingsModule {}
