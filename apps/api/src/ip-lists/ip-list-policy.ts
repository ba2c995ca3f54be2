import { Injectable } from '@nestjs/common';
import { AccountId, CompiledIpLists, IpListVerdict, NO_IP_LIST_VERDICT } from '@twofold/domain';
import { IpListsRepository } from '@twofold/persistence';

/** Accounts whose compiled lists one API process keeps at most; the least recently used is dropped first. */
export const COMPILED_IP_LISTS_MAX_ACCOUNTS = 10_000;

interface CompiledEntry {
  revision: string;
  lists: CompiledIpLists;
}

/**
 * The IP lists' verdict on an access request, with each account's lists compiled once per
 * change and kept in memory.
 *
 * Whether the copy is current is decided by `accounts.ip_lists_revision`, which the access paths read
 * in a query they already make (the user's row on the `ra` family, the account's display name on the
 * page): an account that never had a list (NULL) costs nothing more at all, and one with lists a single
 * extra read per API process after each change. Every change takes a new value of a sequence in its own
 * transaction, so every process sees the new lists at its very next request: no announcement to miss, no
 * listener connection to lose, no time during which a removed Deny range still applies or a removed
 * Bypass range still lets someone in (which a LISTEN/NOTIFY cache would have to guard with a TTL).
 */
@Injectable()
export class IpListPolicy {
  private readonly compiled = new Map<AccountId, CompiledEntry>();

  constructor(private readonly ipLists: IpListsRepository) {}

  /**
   * The verdict for the user's address (null: unknown, nothing applies) on a resource, given the
   * revision read with the request's other data.
   */
  async verdict(accountId: AccountId, revision: string | null, address: string | null, resourceId: string): Promise<IpListVerdict> {
    if (revision === null || address === null) return NO_IP_LIST_VERDICT;
    return (await this.listsAt(accountId, revision)).verdict(address, resourceId);
  }

  private async listsAt(accountId: AccountId, revision: string): Promise<CompiledIpLists> {
    const cached = this.compiled.get(accountId);
    if (cached && cached.revision === revision) {
      // least recently used last
      this.compiled.delete(accountId);
      this.compiled.set(accountId, cached);
      return cached.lists;
    }
    // one statement: the lists and the revision they are at (at least the one asked for)
    const snapshot = await this.ipLists.snapshot(accountId);
    const lists = new CompiledIpLists(snapshot.lists);
    if (snapshot.revision !== null && (!cached || BigInt(snapshot.revision) > BigInt(cached.revision))) {
      this.compiled.delete(accountId);
      if (this.compiled.size >= COMPILED_IP_LISTS_MAX_ACCOUNTS) this.compiled.delete(this.compiled.keys().next().value as AccountId);
      this.compiled.set(accountId, { revision: snapshot.revision, lists });
    }
    return lists;
  }
}
