import { Clock } from '@twofold/domain';
import { ApprovalEntity, ApprovalKey, ApprovalsRepository } from '@twofold/persistence';

/**
 * How often the waits of an instance read their decisions from the database, whatever LISTEN does:
 * the bound on how late a decision whose notification was lost (a transaction pooler, a listening
 * connection being re-opened) ends its wait. One statement for every wait of the instance.
 */
export const APPROVAL_POLL_INTERVAL_MS = 1000;
/** Waits read per statement; more waits are read in several statements of one poll. */
export const APPROVAL_POLL_BATCH = 1000;

/** How a wait ended: the approval left Pending, its deadline passed, its caller gave up, or the service is stopping. */
export type WaitEnd = { kind: 'decided'; approval: ApprovalEntity } | { kind: 'deadline' } | { kind: 'aborted' } | { kind: 'shutdown' };

/** Timers of the waiter: real ones in the service; tests drive `tick()` themselves. */
export interface WaiterTimers {
  every(ms: number, fn: () => void): () => void;
  after(ms: number, fn: () => void): () => void;
}

/** Unreferenced: a wait never keeps the process alive on its own (the HTTP request holding it does). */
export const REAL_TIMERS: WaiterTimers = {
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
  after(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

interface Wait {
  key: ApprovalKey;
  /** on the injected clock, in ms */
  deadline: number;
  resolve: (end: WaitEnd) => void;
  cleanup: () => void;
}

/**
 * The waits of this instance for approvals, held in memory only: a wait holds no database connection,
 * no transaction and no lock, so hundreds wait at once while the pool serves everything else.
 *
 * A wait ends when
 * - the approval is decided on any instance: heard through the listening connection
 *   (`heard`, within milliseconds) or, when that notification is lost, read by the poll (`tick`,
 *   once a second, one statement for all waits);
 * - its deadline passes on the injected clock: checked by a timer at the deadline and by every tick,
 *   without the database, so a frozen or lost database cannot stretch a wait past its bound;
 * - its caller's AbortSignal fires (the client hung up);
 * - the service shuts down (`shutdown`): every wait ends at once, and new ones end as they start.
 */
export class ApprovalWaiter {
  private readonly waits = new Map<string, Set<Wait>>();
  private count = 0;
  private closing = false;
  private polling = false;
  private stopPoll: (() => void) | null = null;

  constructor(
    private readonly approvals: ApprovalsRepository,
    private readonly clock: Clock,
    private readonly timers: WaiterTimers = REAL_TIMERS,
    private readonly onCount: (waits: number) => void = () => undefined,
  ) {}

  /** Starts the once-a-second poll. */
  start(): void {
    if (!this.stopPoll && !this.closing) this.stopPoll = this.timers.every(APPROVAL_POLL_INTERVAL_MS, () => void this.tick());
  }

  /** How many waits are held. */
  get size(): number {
    return this.count;
  }

  wait(key: ApprovalKey, deadline: Date, signal?: AbortSignal): Promise<WaitEnd> {
    if (this.closing) return Promise.resolve({ kind: 'shutdown' });
    if (signal?.aborted) return Promise.resolve({ kind: 'aborted' });
    return new Promise<WaitEnd>((resolve) => {
      const wait: Wait = { key, deadline: deadline.getTime(), resolve, cleanup: () => undefined };
      const onAbort = () => this.end(wait, { kind: 'aborted' });
      signal?.addEventListener('abort', onAbort, { once: true });
      const stopTimer = this.timers.after(Math.max(0, wait.deadline - this.clock.now().getTime()), () => this.expireDue());
      wait.cleanup = () => {
        signal?.removeEventListener('abort', onAbort);
        stopTimer();
      };
      let ofApproval = this.waits.get(key.id);
      if (!ofApproval) this.waits.set(key.id, (ofApproval = new Set()));
      ofApproval.add(wait);
      this.count += 1;
      this.onCount(this.count);
      if (wait.deadline <= this.clock.now().getTime()) this.end(wait, { kind: 'deadline' });
    });
  }

  /** A notification: the approval left Pending on some instance. Read once; a failed read is left to the poll. */
  async heard(approvalId: string): Promise<void> {
    const ofApproval = this.waits.get(approvalId);
    const first = ofApproval?.values().next().value;
    if (!first) return;
    try {
      const approval = await this.approvals.findById(first.key.accountId, approvalId);
      if (approval && approval.status !== 'Pending') this.decided(approval);
    } catch {
      // the database cannot answer now: the poll reads it, the deadline ends the wait otherwise
    }
  }

  /** Ends the waits of an approval known to be decided (by this instance, a notification or the poll). */
  decided(approval: ApprovalEntity): void {
    if (approval.status === 'Pending') return;
    for (const wait of [...(this.waits.get(approval.id) ?? [])]) this.end(wait, { kind: 'decided', approval });
  }

  /** Ends the waits whose deadline has passed on the clock. Needs no database. */
  expireDue(): void {
    const now = this.clock.now().getTime();
    for (const ofApproval of [...this.waits.values()])
      for (const wait of [...ofApproval]) if (wait.deadline <= now) this.end(wait, { kind: 'deadline' });
  }

  /**
   * Once a second: deadlines first (without the database), then one read of the decisions of every
   * wait. A read still running (a slow database) is not started again; a failed one is tried at the
   * next tick.
   */
  async tick(): Promise<void> {
    this.expireDue();
    if (this.polling || this.waits.size === 0) return;
    this.polling = true;
    try {
      const keys = [...this.waits.values()].map((ofApproval) => (ofApproval.values().next().value as Wait).key);
      for (let i = 0; i < keys.length; i += APPROVAL_POLL_BATCH) {
        for (const approval of await this.approvals.decidedAmong(keys.slice(i, i + APPROVAL_POLL_BATCH))) this.decided(approval);
      }
    } catch {
      // the database cannot answer now: deadlines still end the waits
    } finally {
      this.polling = false;
    }
  }

  /** The service is stopping: every wait ends now, and any wait started from now on ends as it starts. */
  shutdown(): void {
    this.closing = true;
    this.stopPoll?.();
    this.stopPoll = null;
    for (const ofApproval of [...this.waits.values()]) for (const wait of [...ofApproval]) this.end(wait, { kind: 'shutdown' });
  }

  private end(wait: Wait, end: WaitEnd): void {
    const ofApproval = this.waits.get(wait.key.id);
    if (!ofApproval?.delete(wait)) return;
    if (ofApproval.size === 0) this.waits.delete(wait.key.id);
    this.count -= 1;
    this.onCount(this.count);
    wait.cleanup();
    wait.resolve(end);
  }
}
