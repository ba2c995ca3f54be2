import { Inject, Injectable } from '@nestjs/common';
import { accessPageFrameAncestors, Clock, effectiveAccessStatus, isCallbackForFrame, PRODUCT_NAME } from '@twofold/domain';
import {
  AccessRequestEntity,
  AccessRequestsRepository,
  AccountsRepository,
  ResourcesRepository,
  UserForCodeCheck,
} from '@twofold/persistence';
import { CLOCK } from '../../config/injection-tokens';
import { IpListPolicy } from '../../ip-lists/ip-list-policy';
import { PageLanguage } from '../../pages/i18n/languages';
import { AccessPageNewcomers } from './access-page-newcomers';
import { AccessFinalReason } from './access-page.view';
import { AccessPageOutcome, PageFrame, Visitor } from './access-page.outcome';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const FINAL_OF_STATUS = { Granted: 'used', Denied: 'denied', Expired: 'expired' } as const satisfies Record<
  string,
  AccessFinalReason
>;

/** The request of a page's URL, with how its page is framed and the account's IP-list revision. */
export interface PageRequest {
  row: AccessRequestEntity;
  frame: PageFrame;
  ipListsRevision: string | null;
}

/**
 * What every visit of `$ACCESS_URL/<id>` does before the access decision: the request of the URL and
 * its frame, then (AccessPageVisits.admit) its expiry written, the visitor's address recorded, and the
 * request's user found or registered at this first visit.
 */
@Injectable()
export class AccessPageVisits {
  constructor(
    private readonly requests: AccessRequestsRepository,
    private readonly accounts: AccountsRepository,
    private readonly resources: ResourcesRepository,
    private readonly newcomers: AccessPageNewcomers,
    private readonly ipLists: IpListPolicy,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The request of the page's URL and how its page is framed, or the final page of an unknown id (or
   * of a request of the `ra` family). The resource (its frameOrigins) is read only for a request meant for a frame.
   */
  async find(id: string, fallbackLang: PageLanguage): Promise<PageRequest | AccessPageOutcome> {
    const row = UUID.test(id) ? await this.requests.findForPage(id.toLowerCase()) : null;
    // a request of the `ra` family is continued only by its resource's ra/challenge: its id is a RADIUS
    // State that travels through NAS logs, and must not open a page that takes codes
    if (!row || row.channel !== 'page') {
      return { lang: fallbackLang, brand: PRODUCT_NAME, frameAncestors: [], kind: 'final', reason: 'unknown' };
    }
    const callback = { action: row.callbackAction, target: row.callbackTarget };
    const frameOrigins = isFrameable(row) ? ((await this.resources.findById(row.accountId, row.resourceId))?.frameOrigins ?? []) : [];
    // the account's name and whether it has IP lists, in the one read of the account a visit makes
    const account = await this.accounts.accessPageFactsOf(row.accountId);
    // the page's brand is the account's display name, the product's name on the page of an unknown request
    const brand = account?.displayName ?? PRODUCT_NAME;
    return {
      row,
      frame: { lang: row.language === 'en' ? 'en' : 'ru', brand, frameAncestors: accessPageFrameAncestors(callback, frameOrigins) },
      ipListsRevision: account?.ipListsRevision ?? null,
    };
  }

  /**
   * Before the decision: a decided or expired request ends here; otherwise the visit's address is
   * recorded and the request's user found, or registered at this first visit unless the visitor's
   * address is on a Deny list (the request is then Denied before anyone is registered). Registration
   * cannot run in the decision's locked transaction: a lost race aborts a transaction. Returns the
   * final page, or the user found (null: registered now) to go on to the decision.
   */
  async admit(
    { row, frame, ipListsRevision }: PageRequest,
    visitor: Visitor,
  ): Promise<AccessPageOutcome | { found: UserForCodeCheck | null }> {
    const final = (reason: AccessFinalReason): AccessPageOutcome => ({ ...frame, kind: 'final', reason });
    const status = effectiveAccessStatus(row, this.clock.now());
    if (status !== 'AwaitingAuthentication') {
      if (row.status === 'AwaitingAuthentication') await this.requests.decide(row.accountId, row.id, 'Expired');
      return final(FINAL_OF_STATUS[status]);
    }
    await this.requests.recordVisit(row.accountId, row.id, { ip: visitor.ip, remoteHost: visitor.ip });
    const found = await this.newcomers.existingUser(row);
    if (found) return { found };
    // a portal's reset or unlock names a user who existed when it was made: nobody is registered for it
    if (row.purpose !== 'signIn') {
      await this.requests.decide(row.accountId, row.id, 'Denied');
      return final('unknown');
    }
    const verdict = await this.ipLists.verdict(row.accountId, ipListsRevision, visitor.ip, row.resourceId);
    if (verdict.decision === 'deny') {
      await this.requests.decide(row.accountId, row.id, 'Denied');
      return final('networkDenied');
    }
    const registered = await this.newcomers.register(row);
    return registered === 'registered' ? { found: null } : final(registered);
  }
}

/** Meant for a frame (an AD FS or Keycloak integration): a postMessage callback, or the target `_parent` or `_top`. */
export function isFrameable(row: Pick<AccessRequestEntity, 'callbackAction' | 'callbackTarget'>): boolean {
  return isCallbackForFrame({ action: row.callbackAction, target: row.callbackTarget });
}
