import { AccountEntity } from './account.entity';
import { AdministratorEntity } from './administrator.entity';
import { UserEntity } from './user.entity';
import { GroupEntity, UserGroupEntity } from './group.entity';
import { PhoneEntity } from './phone.entity';
import { CustomFieldEntity } from './custom-field.entity';
import { AuthenticatorEntity } from './authenticator.entity';
import { ResourceEntity } from './resource.entity';
import { AccessRequestEntity } from './access-request.entity';
import { JournalEventEntity } from './journal-event.entity';
import { EnrollmentTokenEntity } from './enrollment-token.entity';
import { TokenSigningKeyEntity } from './token-signing-key.entity';
import { ApprovalEntity } from './approval.entity';
import { TelegramBindingEntity, TelegramBindingLinkEntity } from './telegram-binding.entity';

export * from './account.entity';
export * from './administrator.entity';
export * from './user.entity';
export * from './group.entity';
export * from './phone.entity';
export * from './custom-field.entity';
export * from './authenticator.entity';
export * from './resource.entity';
export * from './access-request.entity';
export * from './journal-event.entity';
export * from './enrollment-token.entity';
export * from './token-signing-key.entity';
export * from './approval.entity';
export * from './telegram-binding.entity';

export const ALL_ENTITIES = [
  AccountEntity,
  AdministratorEntity,
  UserEntity,
  GroupEntity,
  UserGroupEntity,
  PhoneEntity,
  CustomFieldEntity,
  AuthenticatorEntity,
  ResourceEntity,
  AccessRequestEntity,
  JournalEventEntity,
  EnrollmentTokenEntity,
  TokenSigningKeyEntity,
  ApprovalEntity,
  TelegramBindingEntity,
  TelegramBindingLinkEntity,
];
