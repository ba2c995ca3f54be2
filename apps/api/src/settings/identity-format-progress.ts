import { Inject, Injectable } from '@nestjs/common';
import { AccountId, Clock } from '@twofold/domain';
import { CLOCK } from '../config/injection-tokens';

/**
 * Where an apply stands. `planning`: users read and locked, the plan made (no count yet); `writing`:
 * `done` of `total` user rows written (merged users' rows moved, merged users deleted, survivors and
 * renamed users updated); `done` once the transaction has committed; `failed` once it has rolled back.
 */
export type ApplyState = 'planning' | 'writing' | 'done' | 'failed';

export interface ApplyProgressView {
  id: string;
  state: ApplyState;
  done: number;
  /** null while planning */
  total: number | null;
}

/** How long a finished apply's progress can still be read: the console's last poll comes seconds after the end. */
export const APPLY_PROGRESS_KEPT_MS = 15 * 60_000;
/** Progress entries one process keeps at most (an id is the caller's: nobody fills the memory with them). */
export const APPLY_PROGRESS_MAX_ENTRIES = 1_000;

/** One apply's progress, advanced by the apply as its batches are written. */
export class ApplyProgress {
  private view: ApplyProgressView;

  constructor(id: string) {
    this.view = { id, state: 'planning', done: 0, total: null };
  }

  planned(total: number): void {
    this.view = { ...this.view, state: 'writing', done: 0, total };
  }

  /** Never past the total: a count that overshoots would be a bar past 100 %. */
  advance(users: number): void {
    const total = this.view.total ?? 0;
    this.view = { ...this.view, done: Math.min(total, this.view.done + users) };
  }

  /** Committed: every row is written, whatever the batches counted. */
  finished(): void {
    const total = this.view.total ?? 0;
    this.view = { ...this.view, state: 'done', done: total, total };
  }

  failed(): void {
    this.view = { ...this.view, state: 'failed' };
  }

  read(): ApplyProgressView {
    return this.view;
  }
}

/**
 * The applies running or just finished in this process, by the id their caller chose (so the caller can
 * ask while its `POST …/apply` is still waiting for its answer), each readable by its own account only.
 * Kept in memory: the poll reaches the instance running the apply when the API runs as one instance or
 * behind a balancer with affinity; elsewhere it is 404 and the console shows an apply without figures.
 */
@Injectable()
export class ApplyProgressRegistry {
  private readonly entries = new Map<string, { accountId: AccountId; progress: ApplyProgress; startedAt: number }>();

  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  /**
   * A new apply's progress. An id of the same account's finished apply is taken over; an id of a
   * running apply, or of another account's, gets none (the apply runs without one, and nobody reads
   * another's figures).
   */
  begin(accountId: AccountId, id: string): ApplyProgress | null {
    this.forgetOld();
    const existing = this.entries.get(id);
    if (existing) {
      const { state } = existing.progress.read();
      if (existing.accountId !== accountId || state === 'planning' || state === 'writing') return null;
      this.entries.delete(id);
    }
    const progress = new ApplyProgress(id);
    this.entries.set(id, { accountId, progress, startedAt: this.clock.now().getTime() });
    return progress;
  }

  read(accountId: AccountId, id: string): ApplyProgressView | null {
    const entry = this.entries.get(id);
    return entry && entry.accountId === accountId ? entry.progress.read() : null;
  }

  private forgetOld(): void {
    const before = this.clock.now().getTime() - APPLY_PROGRESS_KEPT_MS;
    for (const [id, entry] of this.entries) if (entry.startedAt < before) this.entries.delete(id);
    // Map keeps insertion order: the oldest go first
    for (const id of this.entries.keys()) {
      if (this.entries.size < APPLY_PROGRESS_MAX_ENTRIES) break;
      this.entries.delete(id);
    }
  }
}
