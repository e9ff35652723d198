import { fillOutcomes, memoGroups, readsNothing, type MemoMember, type OutcomeMemo } from './outcome-memo.js';
import { newScope, type Scope } from './targeting/scope.js';

/** A compiled flag as the table sees it. */
export interface OutcomeSource extends MemoMember {
  /** The context fields its rules and variants read (`fieldsRead`): empty when context-free, null when unknowable. */
  readonly reads: readonly string[] | null;
}

/**
 * The outcome codes of a snapshot's flags: those of context-free flags (constant rules, or none) once, at compile
 * time; the others per context, through a memo per set of fields read (outcome-memo.ts) where their answer
 * depends on those fields alone. Copying the fixed codes skips those flags' objects entirely, and every flag
 * object a request touches is memory it may have to fetch again under load.
 */
export class OutcomeTable {
  private readonly fixed: Int32Array;
  /** Flags evaluated on every call: those whose answer depends on more than their fields (the clock). */
  private readonly direct: Int32Array;
  private readonly memos: readonly OutcomeMemo[];

  constructor(private readonly list: readonly OutcomeSource[]) {
    this.fixed = new Int32Array(list.length);
    const varying: number[] = [];
    const direct: number[] = [];
    list.forEach((flag, i) => {
      if (readsNothing(flag.reads)) this.fixed[i] = flag.outcome(newScope({}));
      else if (flag.reads === null) direct.push(i);
      else varying.push(i);
    });
    this.direct = Int32Array.from(direct);
    this.memos = memoGroups(
      list.map((flag) => flag.reads),
      varying,
    );
  }

  fill(scope: Scope, out: Int32Array): void {
    out.set(this.fixed);
    const list = this.list;
    fillOutcomes(scope, list, this.direct, out);
    const memos = this.memos;
    for (let m = 0; m < memos.length; m++) memos[m]!.fill(scope, list, out);
  }
}
