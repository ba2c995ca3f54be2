import { Inject, Injectable } from '@nestjs/common';
import { AccountId, assertNotSystemGroup, Clock, DomainError, NotFound, Page, RecordId, validateGroupName } from '@twofold/domain';
import { journalDetails } from '@twofold/journal';
import { GroupEntity, GroupsRepository, isUniqueViolation } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { PagedModel, pagedModel } from '../http/envelope';
import { GroupDto, toGroupDto } from './groups.dto';

function nameTaken(name: string): DomainError {
  return new DomainError('GROUP_NAME_TAKEN', `A group named ${name} already exists.`);
}

@Injectable()
export class GroupsService {
  constructor(
    private readonly groups: GroupsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(accountId: AccountId, page: Page): Promise<PagedModel<GroupDto>> {
    const [groups, totalElements] = await this.groups.list(accountId, page);
    return pagedModel(groups, totalElements, page, toGroupDto);
  }

  async create(accountId: AccountId, rawName: string): Promise<GroupDto> {
    journalDetails.add({ GroupName: rawName });
    const name = validateGroupName(rawName);
    try {
      const group = await this.groups.insert(accountId, { name, system: false, createdAt: this.clock.now() });
      journalDetails.add({ GroupId: group.id });
      return toGroupDto(group);
    } catch (error) {
      if (isUniqueViolation(error, 'groups_account_name')) throw nameTaken(name);
      throw error;
    }
  }

  async rename(accountId: AccountId, id: RecordId, rawName: string): Promise<GroupDto> {
    const group = await this.find(accountId, id);
    journalDetails.add({ GroupName: rawName });
    assertNotSystemGroup(group);
    const name = validateGroupName(rawName);
    try {
      await this.groups.rename(accountId, group.id, name);
    } catch (error) {
      if (isUniqueViolation(error, 'groups_account_name')) throw nameTaken(name);
      throw error;
    }
    return { ...toGroupDto(group), name };
  }

  async delete(accountId: AccountId, id: RecordId): Promise<void> {
    const group = await this.find(accountId, id);
    journalDetails.add({ GroupName: group.name });
    assertNotSystemGroup(group);
    await this.groups.delete(accountId, group.id);
  }

  private async find(accountId: AccountId, id: RecordId): Promise<GroupEntity> {
    journalDetails.add({ GroupId: id });
    const group = await this.groups.findById(accountId, id);
    if (!group) throw new NotFound('Group');
    return group;
  }
}
