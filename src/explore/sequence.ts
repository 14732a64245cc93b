// Sequences from the graph, as fast-check commands over one resource: create, update and
// delete (each followed by a read), reads of the collection, and bodies that break the
// schema, each allowed only when
// the instance it needs exists. fast-check
// draws the sequence and its bodies and, on a finding, shrinks both: fewer steps, smaller values.
import fc from 'fast-check';
import type { Operation } from '../project/index.js';
import type { Bodies } from './bodies.js';
import type { Session } from './session.js';
import type { ResourceTargets } from './targets.js';

interface State {
  /** the newest instance the sequence created exists (reads, updates and deletes act on the newest) */
  live: boolean;
  /** it was deleted */
  deleted: boolean;
}

type Step = fc.AsyncCommand<State, Session>;

const MAX_STEPS = 8;

// Every write and every delete is followed by a read of the instance when the resource has
// one: "a read right after" is what E_NOT_PERSISTED and E_USE_AFTER_DELETE are about.
class Create implements Step {
  constructor(
    readonly op: Operation,
    readonly read: Operation | undefined,
    readonly body: unknown,
  ) {}
  // another create is allowed at any time: a second one with the same values is a sequence too
  check = () => true;
  async run(m: State, s: Session) {
    if (!(await s.write(this.op, 'create', this.body))) return;
    Object.assign(m, { live: true, deleted: false });
    if (this.read) await s.read(this.read);
  }
  toString = () => `${this.op.id}(${JSON.stringify(this.body)})`;
}

class Update implements Step {
  constructor(
    readonly op: Operation,
    readonly read: Operation | undefined,
    readonly body: unknown,
  ) {}
  check = (m: Readonly<State>) => m.live;
  async run(_m: State, s: Session) {
    if ((await s.write(this.op, 'update', this.body)) && this.read) await s.read(this.read);
  }
  toString = () => `${this.op.id}(${JSON.stringify(this.body)})`;
}

class Delete implements Step {
  constructor(
    readonly op: Operation,
    readonly read: Operation | undefined,
  ) {}
  check = (m: Readonly<State>) => m.live;
  async run(m: State, s: Session) {
    if (!(await s.delete(this.op))) return;
    Object.assign(m, { live: false, deleted: true });
    if (this.read) await s.read(this.read);
  }
  toString = () => this.op.id;
}

/** A read of the collection with query values drawn from its parameters, checked for what any answer is checked for (a 5xx, the contract). */
class List implements Step {
  constructor(
    readonly op: Operation,
    readonly query: Record<string, unknown> | undefined,
  ) {}
  check = () => true;
  run = async (_m: State, s: Session) => s.list(this.op, this.query);
  toString = () => `${this.op.id}(${JSON.stringify(this.query)})`;
}

class Invalid implements Step {
  constructor(
    readonly op: Operation,
    readonly body: unknown,
    readonly onInstance: boolean,
  ) {}
  check = (m: Readonly<State>) => !this.onInstance || m.live;
  run = async (_m: State, s: Session) => s.invalid(this.op, this.body);
  toString = () => `${this.op.id}~invalid(${JSON.stringify(this.body)})`;
}

export function sequenceArbitrary(t: ResourceTargets, bodies: (op: Operation) => Bodies): fc.Arbitrary<Iterable<Step>> {
  const steps: fc.Arbitrary<Step>[] = [];
  const add = (op: Operation, onInstance: boolean, make: (body: unknown) => Step) => {
    const b = bodies(op);
    steps.push((b.valid ?? fc.constant(undefined)).map(make));
    if (b.invalid) steps.push(b.invalid.map((body) => new Invalid(op, body, onInstance)));
  };
  if (t.create) add(t.create, false, (body) => new Create(t.create!, t.read, body));
  for (const w of t.writes) add(w, true, (body) => new Update(w, t.read, body));
  if (t.delete) steps.push(fc.constant(new Delete(t.delete, t.read)));
  for (const l of t.lists) steps.push((bodies(l).query ?? fc.constant(undefined)).map((q) => new List(l, q)));
  for (const b of t.bulk) add(b, false, (body) => new Update(b, undefined, body));
  return fc.commands(steps, { maxCommands: MAX_STEPS });
}
