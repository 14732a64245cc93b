// Deadlines of in-flight requests without one Node timer each. A setTimeout per request cost
// more than the rest of the timeout handling together: Node builds a Timeout (with its async
// hooks) and, in a sequential run, a timer list that is torn down again as each request ends.
// Requests with the same time limit expire in the order they started, so one list per limit
// and one timer for its oldest entry are enough.

export interface Deadline {
  readonly at: number;
  fire: () => void;
  done: boolean;
}

const NOOP = (): void => {};

export class DeadlineList {
  #entries: Deadline[] = [];
  #head = 0;
  #live = 0;
  #timer?: NodeJS.Timeout;

  constructor(private readonly ms: number) {}

  /** `fire` runs once `ms` have passed, unless `cancel` came first. */
  add(fire: () => void): Deadline {
    const deadline: Deadline = { at: performance.now() + this.ms, fire, done: false };
    this.#entries.push(deadline);
    if (++this.#live === 1 && this.#timer) this.#timer.ref();
    this.#timer ??= setTimeout(() => this.#expire(), this.ms);
    return deadline;
  }

  cancel(deadline: Deadline): void {
    if (deadline.done) return;
    deadline.done = true;
    deadline.fire = NOOP;
    if (--this.#live > 0) return;
    // Nothing in flight: forget the entries, and let the armed timer not hold the process
    // (it is kept, not cleared: the next request reuses it).
    this.#entries = [];
    this.#head = 0;
    this.#timer?.unref();
  }

  #expire(): void {
    this.#timer = undefined;
    // Node's clock (the loop's, in whole ms) may be a little behind performance.now().
    const now = performance.now() + 1;
    const due: Array<() => void> = [];
    while (this.#head < this.#entries.length) {
      const d = this.#entries[this.#head];
      if (!d.done && d.at > now) break;
      this.#head++;
      if (d.done) continue;
      due.push(d.fire);
      d.done = true;
      d.fire = NOOP;
      this.#live--;
    }
    if (this.#head >= this.#entries.length) {
      this.#entries = [];
      this.#head = 0;
    } else {
      if (this.#head > 1024) {
        this.#entries = this.#entries.slice(this.#head);
        this.#head = 0;
      }
      this.#timer = setTimeout(() => this.#expire(), Math.max(1, this.#entries[this.#head].at - performance.now()));
    }
    // Last: a fired deadline's handler may start another request (a retry) and add one.
    for (const fire of due) fire();
  }
}

/** One list per time limit. */
export class Deadlines {
  readonly #lists = new Map<number, DeadlineList>();

  list(ms: number): DeadlineList {
    let list = this.#lists.get(ms);
    if (!list) this.#lists.set(ms, (list = new DeadlineList(ms)));
    return list;
  }
}
