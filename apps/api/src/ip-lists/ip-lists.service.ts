import { Inject, Injectable } from '@nestjs/common';
import {
  AccountId,
  Clock,
  DomainError,
  IpListInput,
  NotFound,
  Page,
  RecordId,
  refusalOfIpResource,
  ValidationFailed,
} from '@twofold/domain';
import { journalDetails } from '@twofold/journal';
import { IpListRow, IpListsRepository, isUniqueViolation } from '@twofold/persistence';
import { CLOCK } from '../config/injection-tokens';
import { pagedModel, PagedModel } from '../http/envelope';
import { IpListDto, toIpListDto } from './ip-lists.dto';

function nameTaken(name: string): DomainError {
  return new DomainError('IP_LIST_NAME_TAKEN', `An IP list named ${name} already exists.`);
}

/**
 * IP lists of the account: what the journal records of a change is the list's id, name,
 * action, number of ranges and its resources (ranges themselves can be 1 000 long: the list shows them).
 */
@Injectable()
export class IpListsService {
  constructor(
    private readonly ipLists: IpListsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Paged like every list of the API (groups, resources), oldest first. */
  async list(accountId: AccountId, page: Page): Promise<PagedModel<IpListDto>> {
    const [rows, totalElements] = await this.ipLists.page(accountId, page);
    return pagedModel(rows, totalElements, page, toIpListDto);
  }

  async create(accountId: AccountId, input: IpListInput): Promise<IpListDto> {
    this.journalInput(input);
    await this.requireResourcesOf(accountId, input);
    const id = await this.unlessNameTaken(input.name, () => this.ipLists.insert(accountId, input, this.clock.now()));
    journalDetails.add({ IpListId: id });
    return toIpListDto(await this.found(accountId, id));
  }

  async replace(accountId: AccountId, id: RecordId, input: IpListInput): Promise<IpListDto> {
    const existing = await this.find(accountId, id);
    this.journalInput(input);
    await this.requireResourcesOf(accountId, input);
    await this.unlessNameTaken(input.name, () => this.ipLists.replace(accountId, existing.id, input, this.clock.now()));
    return toIpListDto(await this.found(accountId, existing.id));
  }

  async delete(accountId: AccountId, id: RecordId): Promise<void> {
    const existing = await this.find(accountId, id);
    journalDetails.add({ IpList: existing.name, IpListAction: existing.action });
    await this.ipLists.delete(accountId, existing.id);
  }

  private journalInput(input: IpListInput): void {
    journalDetails.add({
      IpList: input.name,
      IpListAction: input.action,
      IpListRanges: String(input.ranges.length),
      IpListResources: input.resources.length === 0 ? 'All' : input.resources.join(', '),
    });
  }

  /** Each named resource must be one of this account's; the refusal names the first that is not. */
  private async requireResourcesOf(accountId: AccountId, input: IpListInput): Promise<void> {
    const known = await this.ipLists.resourcesOfAccount(accountId, input.resources);
    const index = input.resources.findIndex((resourceId) => !known.has(resourceId));
    if (index >= 0) throw new ValidationFailed(refusalOfIpResource(index, input.resources[index]));
  }

  private async unlessNameTaken<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, 'ip_lists_account_name')) throw nameTaken(name);
      throw error;
    }
  }

  private async find(accountId: AccountId, id: RecordId): Promise<IpListRow> {
    journalDetails.add({ IpListId: id });
    const row = await this.ipLists.findById(accountId, id);
    if (!row) throw new NotFound('IP list');
    return row;
  }

  private async found(accountId: AccountId, id: string): Promise<IpListRow> {
    const row = await this.ipLists.findById(accountId, id);
    if (!row) throw new Error('an IP list just written is gone');
    return row;
  }
}
