// Values that are usually ready at once. What a request reads (state, env, an actor's
// session, a prerequisite's result) is known in all but a few cases (a secret from the
// keychain, a first login, a hook), and awaiting a value that is already known still costs a
// promise and a turn of the microtask queue. A 1,000-request run made ~60,000 promises, ten
// times what a plain undici loop makes for the same requests; the hot paths now continue
// synchronously when they can, and become asynchronous only at the first value that is not
// ready, keeping their order. (Not named `then`: a module exporting `then` is itself a
// thenable, and `await import()` of it would call it.)

export type MaybePromise<T> = T | Promise<T>;

/** A thenable: values read from state are JSON, which never holds a function. */
export function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** `next(value)`: now when the value is ready, else once it is. */
export function whenReady<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromise(value) ? value.then(next) : next(value);
}

/** `step(0)`, `step(1)`, … in order: synchronously while each step is, awaiting one that is not. */
export function inOrder(count: number, step: (i: number) => MaybePromise<void>, from = 0): MaybePromise<void> {
  for (let i = from; i < count; i++) {
    const done = step(i);
    if (isPromise(done)) return done.then(() => inOrder(count, step, i + 1));
  }
}
