import type { CoreHandler } from './handler.js';
import type { CoreRequest, CoreResponse } from './types.js';

/**
 * The answers a handler is still working on. `close()` waits for them before it closes the store: a mutation
 * commits and then reads back what it answers, and a store closed in between turned a committed write into a 503,
 * which tells the client to retry a write that happened.
 */
export class InFlight {
  private count = 0;
  private idle: Array<() => void> = [];

  /** `handler`, counting the answers it gives as promises (answers given at once have nothing left to wait for). */
  wrap(handler: CoreHandler): CoreHandler {
    return (request: CoreRequest): CoreResponse | Promise<CoreResponse> => {
      const answer = handler(request);
      if (!(answer instanceof Promise)) return answer;
      this.count++;
      return answer.finally(() => this.done());
    };
  }

  /** Resolves when no answer is under way, or after `timeoutMs` (a request stuck on the store must not hold a shutdown). */
  drained(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(finish, timeoutMs);
      const idle = this.idle;
      function finish(): void {
        clearTimeout(timer);
        const at = idle.indexOf(finish);
        if (at >= 0) idle.splice(at, 1);
        resolve();
      }
      idle.push(finish);
    });
  }

  private done(): void {
    if (--this.count > 0) return;
    for (const wake of this.idle.splice(0)) wake();
  }
}
