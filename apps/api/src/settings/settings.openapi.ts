import { ApiProperty } from '@nestjs/swagger';
import { RouteDoc } from '../openapi/api-route';
import { modelEnvelope, ref } from '../openapi/common.openapi';

export class DirectorySync {
  @ApiProperty({ description: 'directory synchronization; while on, custom fields of Directory users cannot be changed' })
  enabled!: boolean;
}

export const SETTINGS_DOCS = {
  directorySync: {
    summary: 'Read the directory synchronization switch',
    envelope: 'model',
    ok: { schema: modelEnvelope(ref(DirectorySync)), example: { model: { enabled: false }, success: true, message: null } },
  },
  setDirectorySync: {
    summary: 'Switch directory synchronization',
    envelope: 'model',
    body: { type: DirectorySync, example: { enabled: true } },
    ok: { schema: modelEnvelope(ref(DirectorySync)), example: { model: { enabled: true }, success: true, message: null } },
    errors: { 400: 'enabled must be true or false.' },
  },
} satisfies Record<string, RouteDoc>;
