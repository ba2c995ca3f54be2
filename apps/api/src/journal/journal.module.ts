import { Module } from '@nestjs/common';
import { JournalController } from './journal.controller';
import { JournalService } from './journal.service';

@Module({ controllers: [JournalController], providers: [JournalService] })
export class JournalModule {}
