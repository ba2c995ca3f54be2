import { createHash, KeyObject, randomBytes } from 'node:crypto';
import { HttpException, HttpStatus, Inject, Injectable } from '@nestjs/common';
import { AccountId, ApprovalChoice, Clock, effectiveDisplayName, OTP_TOKEN_DIGITS, ValidationFailed } from '@twofold/domain';
import { generateSecret, toBase32 } from '@twofold/otp';
import { authenticatorBoundEntry, JournalWriter } from '@twofold/journal';
import {
  AccountsRepository,
  ApprovalsRepository,
  AuthenticatorsRepository,
  Db,
  MobileAppDevice,
  MobileAppDevicesRepository,
  PushSubscriptionKeys,
  ResourcesRepository,
  SecretCipher,
  UsersRepository,
} from '@twofold/persistence';
import { ApprovalsService } from '../approvals/approvals.service';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, CLOCK } from '../config/injection-tokens';
import { AppMetrics } from '../metrics/app-metrics';
import {
  approvalNonce,
  approvalNonceKey,
  canonicalText,
  choiceText,
  DeviceOperation,
  keyFromSpki,
  nonceMatches,
  parseDevicePublicKey,
  SignedEnvelope,
  signatureHolds,
  spkiOf,
  timeAcceptable,
} from './device-signature';
import { MobileAppSubscriptionRules } from './push-subscription';

/** How long an enrollment token lives when the page that shows it gives no end of its own. */
export const MOBILE_APP_ENROLLMENT_TTL_MINUTES = 15;
export const MOBILE_APP_AUTHENTICATOR_NAME = 'Twofold Authenticator';
/** RFC 4226 recommends 160-bit secrets for HMAC-SHA-1 (the same as an authenticator app's enrollment). */
const MOBILE_APP_TOTP_SECRET_BYTES = 20;

/**
 * The device's TOTP secret, given to the app once, in the enrollment's answer: RFC 6238 with SHA-1,
 * 6 digits, 30-second steps (what every code path of the service checks); `secret` in Base32 as in an
 * otpauth URI. The app keeps it as a non-extractable HMAC key and shows codes offline.
 */
export interface DeviceTotp {
  secret: string;
  algorithm: 'SHA1';
  digits: number;
  period: 30;
}

export interface Enrolled {
  deviceId: string;
  accountName: string;
  identity: string;
  totp: DeviceTotp;
}

/** 403 (no credentials scheme: the request itself is signed): not signed by a registered, enabled device with a fresh counter and time. */
export class DeviceNotAuthenticated extends HttpException {
  constructor() {
    super('The request is not signed by a registered device.', HttpStatus.FORBIDDEN);
  }
}

/** 410: the enrollment token is unknown, spent or expired. */
export class EnrollmentTokenInvalid extends HttpException {
  constructor() {
    super('This enrollment link is no longer valid.', HttpStatus.GONE);
  }
}

export interface EnrollmentTokenIssued {
  id: string;
  /** 43 base64url characters; given to the phone once (QR code or link), stored only as its hash */
  token: string;
  expiresAt: Date;
}

export interface EnrollRequest {
  token: string;
  publicKey: unknown;
  name: string | null;
  subscription: PushSubscriptionKeys | null;
  envelope: SignedEnvelope;
}

export interface PendingForDevice {
  id: string;
  nonce: string;
  account: string;
  resource: string;
  address: string | null;
  at: string;
  expiresAt: string;
  /** the three numbers to offer (the sign-in's screen shows one); null: approve / "it wasn't me" */
  choices: number[] | null;
}

export interface DecisionRequest {
  approvalId: string;
  choice: ApprovalChoice;
  nonce: string;
  envelope: SignedEnvelope;
}

function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * The service's side of its authenticator app: enrollment tokens and their exchange for a `MobileApp`
 * authenticator holding the device's public key, authentication of signed device requests, the
 * device's pending approvals, and its signed decisions, which go to the approval state machine
 * (ApprovalsService.answerFromDevice) like a Telegram button's.
 */
@Injectable()
export class MobileAppService {
  private readonly nonceKey: KeyObject;

  constructor(
    private readonly db: Db,
    private readonly devices: MobileAppDevicesRepository,
    private readonly authenticators: AuthenticatorsRepository,
    private readonly users: UsersRepository,
    private readonly accounts: AccountsRepository,
    private readonly resources: ResourcesRepository,
    private readonly approvals: ApprovalsRepository,
    private readonly approvalsService: ApprovalsService,
    private readonly subscriptions: MobileAppSubscriptionRules,
    private readonly journal: JournalWriter,
    private readonly cipher: SecretCipher,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: AppMetrics,
  ) {
    this.nonceKey = approvalNonceKey(config.encryptionKey);
  }

  /** A single-use token enrolling one device for the user; `expiresAt`: with the page that shows it. */
  async createEnrollmentToken(accountId: AccountId, userId: string, expiresAt?: Date): Promise<EnrollmentTokenIssued> {
    const now = this.clock.now();
    const token = randomBytes(32).toString('base64url');
    const row = await this.devices.insertToken(accountId, {
      userId,
      tokenHash: tokenHash(token),
      createdAt: now,
      expiresAt: expiresAt ?? new Date(now.getTime() + MOBILE_APP_ENROLLMENT_TTL_MINUTES * 60_000),
    });
    this.metrics.mobileAppEnrollmentToken('issued');
    return { id: row.id, token, expiresAt: row.expiresAt };
  }

  /** Whether a token has enrolled a device yet: what the page that shows it waits for. */
  async enrollmentState(accountId: AccountId, tokenId: string): Promise<{ enrolled: boolean; authenticatorId: string | null } | null> {
    const token = await this.devices.findToken(accountId, tokenId);
    if (!token) return null;
    return { enrolled: token.usedAt !== null && token.authenticatorId !== null, authenticatorId: token.authenticatorId };
  }

  /**
   * The device's registration: the token is spent (once, before its expiry) and its user gets a
   * `MobileApp` authenticator with the device's public key, in one transaction under the user's row
   * lock; the request must be signed by the key it registers (the device holds it). Journaled
   * `Authenticator Bind` (no key, no token, no push endpoint).
   *
   * The same authenticator holds a new TOTP secret (encrypted like every authenticator's), returned
   * once in this answer: the app shows its codes offline, every code check of the service accepts
   * them (a `MobileApp` authenticator with a secret is one of the code kinds), and deleting the device
   * takes its codes with it.
   */
  async enroll(request: EnrollRequest): Promise<Enrolled> {
    const key = parseDevicePublicKey(request.publicKey);
    if (!key) throw new ValidationFailed('publicKey must be a P-256 public key (JWK or SPKI).');
    if (request.subscription) this.subscriptions.check(request.subscription);
    const text = canonicalText(
      'enroll',
      request.token,
      request.envelope.counter,
      request.envelope.time,
      subscriptionFields(request.subscription),
    );
    const now = this.clock.now();
    if (!signatureHolds(key, text, request.envelope.signature) || !timeAcceptable(request.envelope.time, now))
      throw new DeviceNotAuthenticated();
    const token = await this.devices.findTokenByHash(tokenHash(request.token));
    if (!token) throw this.invalidToken();
    const publicKey = spkiOf(key);
    const totpSecret = generateSecret({ bytes: MOBILE_APP_TOTP_SECRET_BYTES });
    const enrolled = await this.db.transaction(async (): Promise<Enrolled> => {
      const user = await this.users.findByIdForUpdate(token.accountId, token.userId);
      if (!user || !(await this.devices.useToken(token.accountId, token.id, now))) throw this.invalidToken();
      if (await this.devices.hasPublicKey(publicKey))
        throw new ValidationFailed('This key is already registered: make a new key for each enrollment.');
      const authenticator = await this.authenticators.insert(token.accountId, {
        userId: user.id,
        kind: 'MobileApp',
        name: request.name ?? MOBILE_APP_AUTHENTICATOR_NAME,
        secretEnc: this.cipher.encrypt('authenticator.secret', totpSecret),
        privateIdEnc: null,
        algorithm: 'SHA1',
        digits: OTP_TOKEN_DIGITS,
        hotpCounter: null,
        lastTimeStep: null,
        createdAt: now,
      });
      await this.devices.insertDevice(token.accountId, {
        authenticatorId: authenticator.id,
        publicKey,
        lastCounter: request.envelope.counter,
        subscription: request.subscription,
        createdAt: now,
      });
      await this.devices.setTokenAuthenticator(token.accountId, token.id, authenticator.id);
      await this.journal.record(token.accountId, authenticatorBoundEntry(user, authenticator, 'MobileApp'));
      const account = await this.accounts.findById(token.accountId);
      return {
        deviceId: authenticator.id,
        accountName: account ? effectiveDisplayName(account) : '',
        identity: user.identity,
        totp: { secret: toBase32(totpSecret), algorithm: 'SHA1', digits: OTP_TOKEN_DIGITS, period: 30 },
      };
    });
    this.metrics.mobileAppEnrollmentToken('used');
    this.metrics.mobileAppDevice('enrolled');
    return enrolled;
  }

  /** A token presented unknown, spent or expired: counted (someone replays a link, or comes too late). */
  private invalidToken(): EnrollmentTokenInvalid {
    this.metrics.mobileAppEnrollmentToken('invalid');
    return new EnrollmentTokenInvalid();
  }

  /**
   * The device a signed request comes from: its signature holds for the device's key over the
   * operation's canonical text, the time is close to ours, and its counter is greater than every one
   * the device used before (spent now, so the same request a second time is refused). Else 403, and
   * nothing is changed.
   */
  async authenticate(operation: DeviceOperation, envelope: SignedEnvelope, fields: readonly string[]): Promise<MobileAppDevice> {
    if (!envelope.deviceId) throw new DeviceNotAuthenticated();
    const device = await this.devices.deviceById(envelope.deviceId);
    if (!device || device.disabled) throw new DeviceNotAuthenticated();
    const text = canonicalText(operation, device.authenticatorId, envelope.counter, envelope.time, fields);
    if (!signatureHolds(keyFromSpki(device.publicKey), text, envelope.signature)) throw new DeviceNotAuthenticated();
    if (!timeAcceptable(envelope.time, this.clock.now())) throw new DeviceNotAuthenticated();
    if (!(await this.devices.spendCounter(device.accountId, device.authenticatorId, envelope.counter))) throw new DeviceNotAuthenticated();
    return device;
  }

  /** What the app shows: the approvals its factor may still answer, each with its server nonce. */
  async pendingFor(envelope: SignedEnvelope): Promise<PendingForDevice[]> {
    const device = await this.authenticate('approvals', envelope, []);
    const pending = await this.approvals.pendingOfAuthenticator(device.accountId, device.authenticatorId, this.clock.now());
    if (pending.length === 0) return [];
    const account = await this.accounts.findById(device.accountId);
    const accountName = account ? effectiveDisplayName(account) : '';
    return Promise.all(
      pending.map(async (approval) => ({
        id: approval.id,
        nonce: approvalNonce(this.nonceKey, approval.id, device.authenticatorId),
        account: accountName,
        resource: (await this.resources.findById(device.accountId, approval.resourceId))?.name ?? '',
        address: approval.address,
        at: approval.createdAt.toISOString(),
        expiresAt: approval.expiresAt.toISOString(),
        choices: approval.choices ? [...approval.choices] : null,
      })),
    );
  }

  /**
   * A signed decision. Applied only to an approval of this device's own factor, with the nonce the
   * service gave for it, through the approval state machine (which takes only an answer the approval
   * offered, while it is Pending and unexpired). Anything else changes nothing: `ignored`.
   */
  async decide(request: DecisionRequest, address: string | null): Promise<'approved' | 'rejected' | 'ignored'> {
    const device = await this.authenticate('decision', request.envelope, [request.approvalId, choiceText(request.choice), request.nonce]);
    if (!nonceMatches(this.nonceKey, request.approvalId, device.authenticatorId, request.nonce)) return 'ignored';
    const approval = await this.approvals.findById(device.accountId, request.approvalId);
    if (!approval || approval.factor !== 'MobileApp' || approval.authenticatorId !== device.authenticatorId) return 'ignored';
    const answer = await this.approvalsService.answerFromDevice(approval, request.choice, {
      decidedBy: `mobileapp:${device.authenticatorId}`,
      address,
    });
    if (answer.kind === 'ignored') return 'ignored';
    if (answer.approval.status !== 'Approved') return 'rejected';
    if (address) await this.devices.recordDeviceAddress(device.accountId, answer.approval.accessRequestId, address).catch(() => undefined);
    return 'approved';
  }

  /** The device's new Web Push subscription (the browser renews them), or none (notifications turned off). */
  async setSubscription(envelope: SignedEnvelope, subscription: PushSubscriptionKeys | null): Promise<void> {
    if (subscription) this.subscriptions.check(subscription);
    const device = await this.authenticate('subscription', envelope, subscriptionFields(subscription));
    await this.devices.setSubscription(device.accountId, device.authenticatorId, subscription);
  }
}

/** A subscription's part of a signed text: its endpoint and keys, or three dashes for none. */
export function subscriptionFields(subscription: PushSubscriptionKeys | null): string[] {
  return subscription ? [subscription.endpoint, subscription.p256dh, subscription.auth] : ['-', '-', '-'];
}
