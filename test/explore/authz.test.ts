// The judgment of `flow explore --authz` (src/explore/authz.ts), case by case: what proves a
// finding, what is a denial, and what sharing and public operations allow.
import { describe, expect, it } from 'vitest';
import { asRole, byDesign, judge, judgeAnonymousCreate, judgeRole, sharedWith, type Attempt } from '../../src/explore/authz.js';
import type { OperationSecurity } from '../../src/explore/security.js';

const SECURED: OperationSecurity = {
  described: 'GET /notes/{id}',
  public: false,
  optional: false,
  alternatives: [[{ scheme: 'oauth', type: 'oauth2', scopes: ['notes'] }]],
};
const PUBLIC: OperationSecurity = { described: 'GET /pages/{id}', public: true, optional: false, alternatives: [] };
const NOTE = { id: 'n7', owner: 'alice', title: 'groceries', text: 'milk' };

const read = (over: Partial<Attempt> = {}): Attempt => ({
  kind: 'read',
  operation: 'note.get',
  resource: 'note',
  owner: 'alice',
  other: 'bob',
  security: SECURED,
  identity: { id: 'n7' },
  ownerView: { status: 201, body: NOTE },
  answer: { status: 200, body: NOTE },
  ...over,
});

const write = (over: Partial<Attempt> = {}): Attempt =>
  read({
    kind: 'update',
    operation: 'note.update',
    sent: { text: 'pwned' },
    after: { status: 200, body: { ...NOTE, text: 'pwned' } },
    afterBy: 'note.get',
    ...over,
  });

const code = (a: Attempt) => {
  const v = judge(a);
  return v.kind === 'finding' ? v.code : v.kind;
};

describe('reads by another actor', () => {
  it("a 2xx showing the owner's instance is E_AUTHZ_OTHER_READ", () => {
    const v = judge(read());
    expect(v).toEqual({ kind: 'finding', code: 'E_AUTHZ_OTHER_READ', message: `bob read alice's note (id "n7"): note.get answered 200 with its data` });
  });

  it('401, 403, 404 and any other non-2xx are denials', () => {
    for (const status of [401, 403, 404, 400, 405, 500]) expect(code(read({ answer: { status, body: { error: 'no' } } })), String(status)).toBe('denied');
  });

  it("a 200 whose body shows none of the owner's data is a denial (an empty body, an error object, a login page, another note)", () => {
    for (const body of [undefined, {}, { error: 'not yours' }, { data: null }, { id: 'n8', title: 'other', text: 'x' }, [], 'text']) {
      expect(code(read({ answer: { status: 200, body } })), JSON.stringify(body)).toBe('denied');
    }
  });

  it("the owner's data counts under an envelope, as the id's text, or by a distinctive field the body shows", () => {
    expect(code(read({ answer: { status: 200, body: { data: NOTE } } }))).toBe('E_AUTHZ_OTHER_READ');
    expect(code(read({ identity: { id: 7 }, answer: { status: 200, body: { id: '7' } } }))).toBe('E_AUTHZ_OTHER_READ');
    expect(code(read({ answer: { status: 200, body: { note: { title: 'groceries' } } } }))).toBe('E_AUTHZ_OTHER_READ');
    // a short value or a boolean may show by chance: not proof
    expect(code(read({ ownerView: { status: 201, body: { id: 'n7', done: true, n: 1 } }, answer: { status: 200, body: { done: true, n: 1 } } }))).toBe(
      'denied',
    );
  });

  it('reading a public operation is not OTHER_READ, nor is it ANONYMOUS', () => {
    expect(judge(read({ security: PUBLIC }))).toEqual({ kind: 'allowed', why: 'the description makes GET /pages/{id} public (security: [])' });
    expect(code(read({ security: PUBLIC, other: null }))).toBe('allowed');
  });
});

describe('lists', () => {
  const list = (body: unknown, over: Partial<Attempt> = {}) => read({ kind: 'list', operation: 'note.list', answer: { status: 200, body }, ...over });

  it("a list holding another actor's instance is E_AUTHZ_OTHER_READ on the list; one without it is a denial", () => {
    expect(code(list({ notes: [{ id: 'n1', owner: 'bob' }, NOTE] }))).toBe('E_AUTHZ_OTHER_READ');
    expect(judge(list({ notes: [NOTE] }))).toMatchObject({ message: `bob listed alice's note: note.list answered 200 with it (id "n7")` });
    expect(code(list({ notes: [] }))).toBe('denied');
    // only the identity counts in a list: the other actor's own note may have the same title
    expect(code(list({ notes: [{ id: 'n8', title: 'groceries' }] }))).toBe('denied');
  });

  it('unless the resource is shared with that actor', () => {
    expect(code(list({ notes: [NOTE] }, { shared: [{ access: 'read' }] }))).toBe('allowed');
    expect(code(list({ notes: [NOTE] }, { shared: [{ with: ['admin'], access: 'read' }] }))).toBe('E_AUTHZ_OTHER_READ');
  });
});

describe('writes by another actor', () => {
  it("E_AUTHZ_OTHER_WRITE needs the 2xx and the owner's next read showing the change", () => {
    const v = judge(write());
    expect(v).toEqual({
      kind: 'finding',
      code: 'E_AUTHZ_OTHER_WRITE',
      message: `bob changed alice's note (id "n7"): note.update answered 200, and alice's next read (note.get) shows text "pwned" (was "milk")`,
    });
  });

  it("the change shows under the one object the owner's read wraps the instance in (Unleash: {version, tagType: {…}})", () => {
    const wrapped = (text: string) => ({ version: 1, note: { ...NOTE, text } });
    const v = judge(write({ ownerView: { status: 200, body: wrapped('milk') }, after: { status: 200, body: wrapped('pwned') } }));
    expect(v).toMatchObject({ kind: 'finding', code: 'E_AUTHZ_OTHER_WRITE' });
    expect(v.kind === 'finding' && v.message).toMatch(/shows text "pwned" \(was "milk"\)$/);
    // not when two objects could hold it, nor when the read shows the old value
    const two = (text: string) => ({ note: { ...NOTE, text }, previous: { ...NOTE, text: 'pwned' } });
    expect(code(write({ ownerView: { status: 200, body: two('milk') }, after: { status: 200, body: two('milk') } }))).toBe('unproven');
    expect(code(write({ ownerView: { status: 200, body: wrapped('milk') }, after: { status: 200, body: wrapped('milk') } }))).toBe('unproven');
  });

  it("a 2xx the owner's next read does not show is not proven: the field is unchanged, or was that already, or is not shown", () => {
    expect(code(write({ after: { status: 200, body: NOTE } }))).toBe('unproven');
    expect(code(write({ sent: { text: 'milk' }, after: { status: 200, body: NOTE } }))).toBe('unproven');
    expect(code(write({ after: { status: 200, body: { id: 'n7' } } }))).toBe('unproven');
    expect(code(write({ after: undefined }))).toBe('unproven');
  });

  it("a delete is proven by the owner's next read answering 404 or 410; a read that still answers 200 proves nothing", () => {
    const del = (after: Attempt['after']) => write({ kind: 'delete', operation: 'note.delete', sent: undefined, answer: { status: 204 }, after });
    expect(judge(del({ status: 404, body: { error: 'gone' } }))).toEqual({
      kind: 'finding',
      code: 'E_AUTHZ_OTHER_WRITE',
      message: `bob deleted alice's note (id "n7"): note.delete answered 204, and alice's next read (note.get) answered 404`,
    });
    expect(code(del({ status: 410 }))).toBe('E_AUTHZ_OTHER_WRITE');
    expect(code(del({ status: 200, body: NOTE }))).toBe('unproven');
  });

  it('a refusal is a denial whatever the read shows', () => {
    expect(code(write({ answer: { status: 403, body: { error: 'not yours' } } }))).toBe('denied');
  });

  it('sharing with write access allows it; read access does not', () => {
    expect(code(write({ shared: [{ access: 'write' }] }))).toBe('allowed');
    expect(code(write({ shared: [{ with: ['bob'], access: 'write' }] }))).toBe('allowed');
    expect(code(write({ shared: [{ access: 'read' }] }))).toBe('E_AUTHZ_OTHER_WRITE');
    expect(code(read({ shared: [{ access: 'read' }] }))).toBe('allowed');
  });
});

describe('no credentials', () => {
  it("a secured operation answering 2xx with the owner's data, or a proven write, is E_AUTHZ_ANONYMOUS naming what the description requires", () => {
    expect(judge(read({ other: null }))).toEqual({
      kind: 'finding',
      code: 'E_AUTHZ_ANONYMOUS',
      message: `a request with no credentials read alice's note (id "n7"): note.get answered 200 with its data; the description secures GET /notes/{id} (oauth with notes)`,
    });
    expect(code(write({ other: null }))).toBe('E_AUTHZ_ANONYMOUS');
    // with nothing to read it back, the 2xx itself is the answer to no credentials
    expect(code(write({ other: null, after: undefined }))).toBe('E_AUTHZ_ANONYMOUS');
    expect(code(write({ other: null, after: { status: 200, body: NOTE } }))).toBe('unproven');
  });

  it('public, optional credentials, or no security stated: never ANONYMOUS; sharing among actors does not cover it', () => {
    expect(code(read({ other: null, security: PUBLIC }))).toBe('allowed');
    expect(code(read({ other: null, security: { ...SECURED, optional: true } }))).toBe('allowed');
    expect(code(read({ other: null, security: { public: false, optional: false, alternatives: [] } }))).toBe('allowed');
    expect(code(read({ other: null, shared: [{ access: 'write' }] }))).toBe('E_AUTHZ_ANONYMOUS');
  });
});

describe('roles', () => {
  const role = {
    operation: 'stats.get',
    owner: 'admin',
    ownerView: { status: 200, body: { notes: 3, boards: 2 } },
    other: 'bob',
    requirement: 'oauth scope admin',
  };

  it('a 2xx to another actor is E_AUTHZ_ROLE with the requirement it bypassed', () => {
    expect(judgeRole({ ...role, answer: { status: 200, body: { notes: 3, boards: 2 } } })).toEqual({
      kind: 'finding',
      code: 'E_AUTHZ_ROLE',
      message: 'bob got 200 from stats.get, which needs oauth scope admin (the project runs it as admin)',
    });
    // what the role saw had nothing distinctive: the 2xx is the finding
    expect(judgeRole({ ...role, ownerView: { status: 204 }, answer: { status: 204 } }).kind).toBe('finding');
  });

  it("a refusal, or a 2xx showing none of the role's answer, is a denial", () => {
    expect(judgeRole({ ...role, answer: { status: 403 } }).kind).toBe('denied');
    expect(judgeRole({ ...role, answer: { status: 200, body: {} } }).kind).toBe('denied');
  });
});

describe('sharedWith', () => {
  it('every actor when `with` is left out; read access lets them read only', () => {
    expect(sharedWith(undefined, 'bob', true)).toBe(false);
    expect(sharedWith([{ access: 'read' }], 'bob', true)).toBe(true);
    expect(sharedWith([{ access: 'read' }], 'bob', false)).toBe(false);
    expect(sharedWith([{ with: ['admin'], access: 'write' }], 'bob', true)).toBe(false);
    expect(sharedWith([{ with: ['admin'], access: 'write' }], 'admin', false)).toBe(true);
    expect(sharedWith([{ with: [], access: 'write' }], 'bob', true)).toBe(false);
  });

  it('several grants: each its actors and access (editors change it, viewers read it)', () => {
    const roles = [
      { with: ['editor'], access: 'write' as const },
      { with: ['viewer'], access: 'read' as const },
    ];
    expect(sharedWith(roles, 'editor', false)).toBe(true);
    expect(sharedWith(roles, 'viewer', true)).toBe(true);
    expect(sharedWith(roles, 'viewer', false)).toBe(false);
    expect(sharedWith(roles, 'guest', true)).toBe(false);
    expect(byDesign(write({ other: 'viewer', shared: roles }))).toBeUndefined();
    expect(byDesign(read({ other: 'viewer', shared: roles }))).toEqual({ kind: 'allowed', why: 'note is shared with viewer to read' });
    expect(byDesign(read({ other: 'editor', shared: roles }))).toEqual({ kind: 'allowed', why: 'note is shared with editor' });
  });
});

describe('byDesign: what is not sent at all', () => {
  it('a public operation for anyone; optional or unstated credentials for no credentials; a shared resource for the actors it names', () => {
    expect(byDesign(read({ security: PUBLIC }))?.kind).toBe('allowed');
    expect(byDesign(read({ other: null, security: { ...SECURED, optional: true } }))?.kind).toBe('allowed');
    expect(byDesign(read({ other: null, security: { public: false, optional: false, alternatives: [] } }))?.kind).toBe('allowed');
    expect(byDesign(read({ shared: [{ with: ['bob'], access: 'read' }] }))).toEqual({ kind: 'allowed', why: 'note is shared with bob to read' });
    // what the answer must decide is sent
    expect(byDesign(read())).toBeUndefined();
    expect(byDesign(read({ other: null }))).toBeUndefined();
    expect(byDesign(write({ shared: [{ with: ['bob'], access: 'read' }] }))).toBeUndefined();
    expect(byDesign(read({ shared: [{ with: ['admin'], access: 'write' }] }))).toBeUndefined();
  });
});

describe('a create with no credentials', () => {
  const create = {
    operation: 'note.create',
    resource: 'note',
    security: { ...SECURED, described: 'POST /notes' },
    answer: { status: 201, body: NOTE },
    made: { id: 'n7' },
  };

  it('a 2xx that made an instance, to an operation the description secures, is E_AUTHZ_ANONYMOUS', () => {
    expect(judgeAnonymousCreate(create)).toEqual({
      kind: 'finding',
      code: 'E_AUTHZ_ANONYMOUS',
      message: 'a request with no credentials created a note (id "n7"): note.create answered 201; the description secures POST /notes (oauth with notes)',
    });
  });

  it('a refusal, a 2xx that made nothing, or an operation the description does not secure is not', () => {
    expect(judgeAnonymousCreate({ ...create, answer: { status: 401 } }).kind).toBe('denied');
    expect(judgeAnonymousCreate({ ...create, answer: { status: 200, body: { error: 'log in' } }, made: {} }).kind).toBe('denied');
    expect(judgeAnonymousCreate({ ...create, security: PUBLIC }).kind).toBe('allowed');
  });
});

describe("asRole: a role's write tried as another actor", () => {
  it('a proven change is E_AUTHZ_ROLE naming what it needs; a denial, or no credentials, stays as judged', () => {
    const proven = { kind: 'finding' as const, code: 'E_AUTHZ_OTHER_WRITE' as const, message: "bob changed alice's page" };
    expect(asRole(proven, 'page.feature', 'oauth scope admin', 'admin')).toEqual({
      kind: 'finding',
      code: 'E_AUTHZ_ROLE',
      message: "bob changed alice's page; page.feature needs oauth scope admin (the project runs it as admin)",
    });
    const denied = { kind: 'denied' as const, why: 'page.feature answered 403 to bob' };
    expect(asRole(denied, 'page.feature', 'oauth scope admin', 'admin')).toBe(denied);
    const anonymous = { kind: 'finding' as const, code: 'E_AUTHZ_ANONYMOUS' as const, message: 'x' };
    expect(asRole(anonymous, 'page.feature', 'oauth scope admin', 'admin')).toBe(anonymous);
  });
});
