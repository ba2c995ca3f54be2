/**
 * How a retry waits (a push service's 429 or 5xx): injected as SLEEP so that tests advance their
 * manual clock instead of waiting. The real one never keeps the process alive on its own.
 */
export type Sleep = (ms: number) => Promise<void>;

export const REAL_SLEEP: Sleep = (ms) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
  });
