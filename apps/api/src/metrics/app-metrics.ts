import { AccessRequestChannel } from '@twofold/persistence';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DataSource } from 'typeorm';

/** The label of every request no route matched: one series for all unknown paths, whatever their URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Where a code was checked: the access requests' channels, or an enrollment link's page. */
export type OtpChannel = AccessRequestChannel | 'enrollment';

/**
 * What became of a submitted code. `replayed`: a code of a time step or counter already spent (sent
 * again, or spent first by a parallel submission); still refused. `locked`: not checked at all, the
 * user being locked by an administrator or locked out for wrong codes.
 */
export type OtpResult = 'granted' | 'wrong' | 'replayed' | 'locked';

/**
 * `address`, `resource`: a wrong code started a lockout of the user's codes from one address network
 * or through one resource (libs/domain code-lockouts.ts); `request`: a request's own five attempts
 * are spent and it is Denied.
 */
export type LockoutScope = 'address' | 'resource' | 'request';

/**
 * How an approval ended: the user approved, answered "it wasn't me" or picked a wrong number; no
 * answer in time; the waiting client hung up or the service stopped; the message could not be sent.
 */
export type ApprovalResult = 'approved' | 'rejected_not_me' | 'rejected_wrong_number' | 'expired' | 'cancelled' | 'undeliverable';

/** Why a transport could not deliver an approval's message (approvals/approval-transport.ts). */
export type DeliveryFailureLabel = 'not_configured' | 'not_bound' | 'refused' | 'unreachable' | 'timeout' | 'throttled';

/**
 * One Web Push attempt's outcome: `delivered`; `retried` (a 429 or 5xx tried again within the bound);
 * or, when final, `gone` (404/410: the subscription is forgotten), `refused` (400, 413, …),
 * `throttled`, `unreachable`, `timeout`.
 */
export type PushOutcome = 'delivered' | 'retried' | 'gone' | 'refused' | 'throttled' | 'unreachable' | 'timeout';

/** What became of an app enrollment token: issued by a page, used by a device, or presented spent, expired or unknown. */
export type EnrollmentTokenEvent = 'issued' | 'used' | 'invalid';

/** What `pg.Pool` exposes of its state (the TypeORM postgres driver's `master`). */
interface PoolState {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** 5 ms to 10 s: the API's answers take milliseconds; the database timeouts end them within 2 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Child = { inc(): void };
type Observer = { observe(value: number): void };

/**
 * The application's Prometheus metrics, in a registry of its own (not prom-client's global one), so
 * several applications in one process (the tests) each count their own. Label values are only route
 * patterns, methods, statuses and fixed words: never a URL, identity, key or code.
 */
export class AppMetrics {
  readonly registry = new Registry();

  private readonly requests = new Counter({
    name: 'twofold_http_requests_total',
    help: 'HTTP requests answered, by method, matched route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'twofold_http_request_duration_seconds',
    help: 'Time from the request received to its answer sent, by method and matched route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  private readonly otp = new Counter({
    name: 'twofold_otp_verifications_total',
    help: 'Submitted one-time codes by channel (page, ra, md, enrollment) and result (granted, wrong, replayed, locked)',
    labelNames: ['channel', 'result'] as const,
    registers: [this.registry],
  });
  private readonly accessRequests = new Counter({
    name: 'twofold_access_requests_created_total',
    help: 'Access requests created, by channel and status at creation (refused: none created, e.g. Users quota exceeded)',
    labelNames: ['channel', 'status'] as const,
    registers: [this.registry],
  });
  private readonly lockouts = new Counter({
    name: 'twofold_code_lockouts_total',
    help: 'Lockouts for too many wrong codes, by channel and scope (address, resource: a user locked out from one network or through one resource; request: its five attempts spent)',
    labelNames: ['channel', 'scope'] as const,
    registers: [this.registry],
  });

  private readonly approvalsPending = new Gauge({
    name: 'twofold_approvals_pending',
    help: 'Calls this instance holds open while the user confirms the sign-in on their phone',
    registers: [this.registry],
  });
  private readonly approvalsDecided = new Counter({
    name: 'twofold_approvals_decided_total',
    help: 'Approvals ended, by channel of the sign-in (page, ra, md, la), factor (telegram, mobileapp) and result',
    labelNames: ['channel', 'factor', 'result'] as const,
    registers: [this.registry],
  });
  private readonly deliveryFailures = new Counter({
    name: 'twofold_approval_delivery_failures_total',
    help: 'Approval messages that could not be delivered, by factor and reason',
    labelNames: ['factor', 'reason'] as const,
    registers: [this.registry],
  });

  private readonly pushes = new Counter({
    name: 'twofold_web_pushes_total',
    help: 'Web Push messages to the authenticator app, by outcome (delivered; retried: an attempt throttled or failed and tried again; final failures gone, refused, throttled, unreachable, timeout)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly appDevices = new Counter({
    name: 'twofold_mobile_app_devices_total',
    help: 'Authenticator app devices enrolled and removed (by the user on the my-factors page, or through the API)',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });
  private readonly appEnrollmentTokens = new Counter({
    name: 'twofold_mobile_app_enrollment_tokens_total',
    help: 'Authenticator app enrollment tokens issued by the pages, used by a device, and presented when spent, expired or unknown (invalid)',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });

  private readonly phoneCodes = new Counter({
    name: 'twofold_phone_codes_total',
    help: 'Codes to be sent to phones, by method (sms, call) and outcome (sent, or why not: unreachable, timeout, status, unexpected_answer, and the abuse limits cooldown, hourly_cap, daily_budget, destination)',
    labelNames: ['method', 'outcome'] as const,
    registers: [this.registry],
  });

  /**
   * The children of the hot path's series, found without building a label object or key string per
   * request: method → route → status. The label set is bounded by the routes Nest registered.
   */
  private readonly counted = new Map<string, Map<string, Map<number, Child>>>();
  private readonly timed = new Map<string, Map<string, Observer>>();

  constructor(dataSource?: DataSource) {
    collectDefaultMetrics({ register: this.registry });
    if (dataSource) this.watchPool(dataSource);
  }

  /** One answered request: `route` is the matched pattern (`/users/:id`), or UNMATCHED_ROUTE. */
  observeResponse(method: string, route: string, status: number, seconds: number): void {
    let byRoute = this.counted.get(method);
    if (!byRoute) this.counted.set(method, (byRoute = new Map()));
    let byStatus = byRoute.get(route);
    if (!byStatus) byRoute.set(route, (byStatus = new Map()));
    let counter = byStatus.get(status);
    if (!counter) byStatus.set(status, (counter = this.requests.labels(method, route, String(status))));
    counter.inc();

    let timers = this.timed.get(method);
    if (!timers) this.timed.set(method, (timers = new Map()));
    let timer = timers.get(route);
    if (!timer) timers.set(route, (timer = this.latency.labels(method, route)));
    timer.observe(seconds);
  }

  otpVerification(channel: OtpChannel, result: OtpResult): void {
    this.otp.labels(channel, result).inc();
  }

  /** A code to be sent to a phone: sent, refused by the gateway, or stopped by an abuse limit (the label is a fixed word). */
  phoneCode(method: 'sms' | 'call', outcome: string): void {
    this.phoneCodes
      .labels(
        method,
        outcome.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
      )
      .inc();
  }

  accessRequestCreated(channel: AccessRequestChannel, status: string): void {
    this.accessRequests.labels(channel, status).inc();
  }

  lockout(channel: OtpChannel, scope: LockoutScope): void {
    this.lockouts.labels(channel, scope).inc();
  }

  /** How many approval waits this instance holds now. */
  setApprovalsPending(count: number): void {
    this.approvalsPending.set(count);
  }

  /** Counted once per approval, by the instance whose decision or settling won. */
  approvalDecided(channel: string, factor: string, result: ApprovalResult): void {
    this.approvalsDecided.labels(channel, factor.toLowerCase(), result).inc();
  }

  approvalDeliveryFailed(factor: string, reason: DeliveryFailureLabel): void {
    this.deliveryFailures.labels(factor.toLowerCase(), reason).inc();
  }

  pushSent(outcome: PushOutcome): void {
    this.pushes.labels(outcome).inc();
  }

  mobileAppDevice(event: 'enrolled' | 'removed'): void {
    this.appDevices.labels(event).inc();
  }

  mobileAppEnrollmentToken(event: EnrollmentTokenEvent): void {
    this.appEnrollmentTokens.labels(event).inc();
  }

  /** The Prometheus text exposition of every metric. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Read when scraped, so the pool's state costs nothing between scrapes. */
  private watchPool(dataSource: DataSource): void {
    const pool = () => (dataSource.driver as unknown as { master?: PoolState }).master;
    const gauge = (name: string, help: string, read: (state: PoolState) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const state = pool();
          this.set(state ? read(state) : 0);
        },
      });
    gauge('twofold_db_pool_connections_in_use', 'Database connections lent to a query or transaction', (s) => s.totalCount - s.idleCount);
    gauge('twofold_db_pool_connections_idle', 'Open database connections waiting in the pool', (s) => s.idleCount);
    gauge('twofold_db_pool_waiting_clients', 'Queries waiting for a free database connection', (s) => s.waitingCount);
  }
}
