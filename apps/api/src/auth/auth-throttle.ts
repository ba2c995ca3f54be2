import { Clock } from '@twofold/domain';

/** CONTRACT §4: the 21st failed attempt within a minute from one client IP is refused, and all after it. */
export const AUTH_FAILURES_ALLOWED_PER_WINDOW = 20;
export const AUTH_THROTTLE_WINDOW_MS = 60_000;
/** bound on remembered clients, so a flood of addresses cannot grow memory without limit */
const MAX_TRACKED_CLIENTS = 100_000;

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Failed Basic-auth attempts per client IP in a window that starts at the first failure. While a
 * client is over the limit every attempt is refused, right or wrong: otherwise a correct guess would
 * still be told apart from wrong ones. Successful calls neither count nor reset.
 * Per process: behind several API processes the effective limit is per process.
 */
export class AuthThrottle {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly clock: Clock) {}

  /** Seconds until the client may try again, or 0 when it may try now. */
  retryAfterSeconds(ip: string): number {
    const window = this.current(ip);
    if (!window || window.failures < AUTH_FAILURES_ALLOWED_PER_WINDOW) return 0;
    return Math.max(1, Math.ceil((window.startedAt + AUTH_THROTTLE_WINDOW_MS - this.clock.now().getTime()) / 1000));
  }

  recordFailure(ip: string): void {
    const window = this.current(ip);
    if (window) {
      window.failures += 1;
      return;
    }
    if (this.windows.size >= MAX_TRACKED_CLIENTS) this.evictExpired();
    if (this.windows.size >= MAX_TRACKED_CLIENTS) this.windows.delete(this.windows.keys().next().value as string);
    this.windows.set(ip, { startedAt: this.clock.now().getTime(), failures: 1 });
  }

  private current(ip: string): Window | undefined {
    const window = this.windows.get(ip);
    if (window && this.clock.now().getTime() - window.startedAt >= AUTH_THROTTLE_WINDOW_MS) {
      this.windows.delete(ip);
      return undefined;
    }
    return window;
  }

  private evictExpired(): void {
    const now = this.clock.now().getTime();
    for (const [ip, window] of this.windows) {
      if (now - window.startedAt >= AUTH_THROTTLE_WINDOW_MS) this.windows.delete(ip);
    }
  }
}
