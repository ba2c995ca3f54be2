import { DeviceCounter, signedFields, subscriptionFields, SubscriptionKeys, Choice, newDeviceKey, publicJwk } from '../shared/protocol';
import { importTotpSecret } from '../shared/totp';
import { DeviceRecord, saveDevice } from './store';

/**
 * The service's device endpoints, on the origin that serves the app (a deployment whose ACCESS_URL is
 * another host routes /mobile-app/ to the API as it routes the access page): the page's CSP allows
 * `connect-src 'self'` only.
 */
const API = '/mobile-app/v1/';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
  const response = await fetch(API + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
    credentials: 'omit',
  });
  const answer = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new ApiError(response.status, typeof answer.message === 'string' ? answer.message : response.statusText);
  return answer as T;
}

export interface PendingApproval {
  id: string;
  nonce: string;
  account: string;
  resource: string;
  address: string | null;
  at: string;
  expiresAt: string;
  choices: number[] | null;
}

export type DecisionResult = 'approved' | 'rejected' | 'ignored';

export async function pushKey(): Promise<string> {
  return (await call<{ publicKey: string }>('GET', 'push-key')).publicKey;
}

/** Registers a new device key with the token of the enrollment link, and keeps the device. */
export async function enroll(token: string, subscription: SubscriptionKeys | null): Promise<DeviceRecord> {
  const pair = await newDeviceKey();
  const counter = Date.now();
  const signed = await signedFields(pair.privateKey, 'enroll', token, counter, Date.now(), subscriptionFields(subscription));
  const answer = await call<{
    deviceId: string;
    accountName: string;
    identity: string;
    totp: { secret: string; digits: number; period: number };
  }>('POST', 'devices', {
    token,
    publicKey: await publicJwk(pair.publicKey),
    ...(subscription ? { subscription } : {}),
    ...signed,
  });
  const record: DeviceRecord = {
    deviceId: answer.deviceId,
    accountName: answer.accountName,
    identity: answer.identity,
    privateKey: pair.privateKey,
    totpKey: await importTotpSecret(answer.totp.secret),
    digits: answer.totp.digits,
    period: answer.totp.period,
    lastCounter: counter,
    pushEndpoint: subscription?.endpoint ?? null,
    addedAt: new Date().toISOString(),
  };
  await saveDevice(record);
  return record;
}

/** The signature fields of a request of the device, its counter spent (and remembered) first. */
async function signedBy(device: DeviceRecord, operation: 'approvals' | 'decision' | 'subscription', fields: readonly string[]) {
  const counter = new DeviceCounter(device.lastCounter).next(Date.now());
  device.lastCounter = counter;
  await saveDevice(device);
  return { deviceId: device.deviceId, ...(await signedFields(device.privateKey, operation, device.deviceId, counter, Date.now(), fields)) };
}

export async function pendingApprovals(device: DeviceRecord): Promise<PendingApproval[]> {
  return (await call<{ approvals: PendingApproval[] }>('POST', 'approvals', await signedBy(device, 'approvals', []))).approvals;
}

export async function decide(device: DeviceRecord, approval: PendingApproval, choice: Choice): Promise<DecisionResult> {
  const signed = await signedBy(device, 'decision', [approval.id, String(choice), approval.nonce]);
  const answer = await call<{ result: DecisionResult }>('POST', 'decisions', {
    ...signed,
    approvalId: approval.id,
    choice,
    nonce: approval.nonce,
  });
  return answer.result;
}

export async function setSubscription(device: DeviceRecord, subscription: SubscriptionKeys | null): Promise<void> {
  const signed = await signedBy(device, 'subscription', subscriptionFields(subscription));
  await call('PUT', 'subscription', { ...signed, subscription });
  device.pushEndpoint = subscription?.endpoint ?? null;
  await saveDevice(device);
}
