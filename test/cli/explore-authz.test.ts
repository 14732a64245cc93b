// `flow explore --authz` against the notes API of test/helpers/authz-api.ts: the buggy twin
// gives each authorization finding (bob reads, lists and deletes alice's note, a note changes
// and a page is made with no credentials, a user reads the admin's counts), each re-proven, with the owner's
// and the other actor's requests; the correct twin gives none; what is public (a page) or
// shared (a board everyone reads, every note for the admin) gives none on either; the replays
// fail on the buggy twin and pass on the correct one; no token shows anywhere.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capturingIO } from '../helpers/capturing-io.js';
import { AUTHZ_ENV, AUTHZ_TOKENS, authzProject, startAuthzApi, type AuthzApi } from '../helpers/authz-api.js';
import { cleanProjects, writeProject } from '../helpers/project.js';

let buggy: AuthzApi;
let fixed: AuthzApi;

beforeAll(async () => {
  [buggy, fixed] = await Promise.all([startAuthzApi({ fixed: false }), startAuthzApi({ fixed: true })]);
});
afterAll(async () => {
  await Promise.all([buggy.close(), fixed.close()]);
  await cleanProjects();
});

async function flow(dir: string, args: string[], api: AuthzApi) {
  const io = capturingIO({ cwd: dir, env: AUTHZ_ENV });
  // the server's log as it stood when each FINDING line was printed
  const logAt: string[][] = [];
  const write = io.stdout;
  io.stdout = (t: string) => {
    if (t.startsWith('FINDING ')) logAt.push([...api.log]);
    write(t);
  };
  const code = await main([...args, '--var', `baseUrl=${api.url}`], io);
  return { code, out: io.out, err: io.err, logAt };
}

// the cross-actor pass comes first (under a second), then the rounds: 4, what 6 s explored in a
// full test run (load 6); the budget leaves the pass time on a loaded one
const EXPLORE = ['explore', '--openapi', 'openapi.yaml', '--budget', '60', '--rounds', '4', '--seed', '5'];
// on the buggy twin, where every E_AUTHZ_* finding is the pass's: the same seed's 4 rounds
// there are the test without --authz's
const PASS = [...EXPLORE.slice(0, 5), '--rounds', '2', '--seed', '5'];
const found = (out: string) => [...out.matchAll(/^FINDING (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`).sort();

describe('flow explore --authz', () => {
  let dir: string;
  let run: Awaited<ReturnType<typeof flow>>;
  beforeAll(async () => {
    dir = await writeProject(authzProject());
    run = await flow(dir, [...PASS, '--authz', '--out', 'found', '--reporter', 'default', '--reporter', 'json', '--output-file', 'json=report.json'], buggy);
  }, 90_000);

  it('finds each authorization bug of the buggy twin, and only those, and exits 1', () => {
    // pages a request with no credentials made (the E_AUTHZ_ANONYMOUS bug) no actor may delete: said, with why
    expect(run.err).toMatch(
      /^(flow explore: clean-up of what this run created: \d+ deleted, \d+ left\n {2}left page p\d+(, p\d+)*( and \d+ more)?: page\.delete answered 403\n)?$/,
    );
    expect(found(run.out), run.out).toEqual([
      'E_AUTHZ_ANONYMOUS note.update',
      'E_AUTHZ_ANONYMOUS page.create',
      'E_AUTHZ_OTHER_READ note.get',
      'E_AUTHZ_OTHER_READ note.list',
      'E_AUTHZ_OTHER_WRITE note.delete',
      'E_AUTHZ_ROLE page.feature',
      'E_AUTHZ_ROLE stats.get',
    ]);
    expect(run.code).toBe(1);
    expect(run.out).toContain(`bob deleted alice's note`);
    expect(run.out).toContain('which needs oauth scope admin (the project runs it as admin)');
    // a role's write, on the run's own page: its owner is tried too, and the proof is the owner's next read
    expect(run.out).toMatch(
      /^ {2}(alice|bob) changed alice's page \(id "p\d+"\): page\.feature answered 200, and alice's next read \(page\.get\) shows featured true; page\.feature needs oauth scope admin \(the project runs it as admin\)$/m,
    );
  });

  it('prints each finding as it is made: the first before the pass has sent its create with no credentials or its role checks', () => {
    expect(run.logAt.length).toBeGreaterThan(0);
    const first = run.logAt[0];
    expect(first.some((l) => /^GET \/notes\/\S+ bob$/.test(l))).toBe(true);
    expect(first.filter((l) => /^POST \/pages -$/.test(l) || /^GET \/admin\/stats (alice|bob)$/.test(l))).toEqual([]);
  });

  it("each finding shows the owner's request and the other actor's (or none's), redacted, and the summary counts the attempts per pair", () => {
    expect(run.out).toMatch(
      /FINDING E_AUTHZ_OTHER_WRITE note\.delete\n(?:.*\n)*? {4}1\. note\.create \(as alice\) {2}POST .*\/notes\n(?:.*\n)*? {4}2\. note\.delete \(as bob\) {2}DELETE .*\/notes\/n\d+\n {7}-> 204\n {4}3\. note\.get \(as alice\) {2}GET .*\n {7}-> 404/,
    );
    expect(run.out).toMatch(/ {4}2\. note\.update \(no credentials\) {2}PATCH /);
    const line = /^authz: (\d+) cross-actor attempt\(s\) \((.*)\)$/m.exec(run.out);
    expect(line, run.out).not.toBeNull();
    const pairs = Object.fromEntries(line![2].split(', ').map((p) => [p.replace(/ \d+$/, ''), Number(/\d+$/.exec(p)![0])]));
    expect(Object.keys(pairs).sort()).toEqual(['admin -> alice', 'admin -> bob', 'alice -> admin', 'alice -> bob', 'alice -> no credentials']);
    expect(Object.values(pairs).reduce((a, b) => a + b, 0)).toBe(Number(line![1]));
    // bob's read of alice's note answered 200 with it: not all of that pair was refused
    const refused = /^ {2}refused \(a non-2xx, or a 2xx with none of the owner's data\): (.*)$/m.exec(run.out);
    const bob = /alice -> bob (\d+) of (\d+)/.exec(refused?.[1] ?? '');
    expect(bob, run.out).not.toBeNull();
    expect(Number(bob![1])).toBeLessThan(Number(bob![2]));
    expect(Number(bob![2])).toBe(pairs['alice -> bob']);
  });

  it('what is public or shared is not tried: no one but alice read a board, no page was read as another actor', () => {
    const tried = buggy.log.filter((l) => !l.endsWith(' alice') && !l.endsWith(' admin'));
    // a board is read (or listed) by no one but alice, and with no credentials, which sharing does not cover
    expect(tried.filter((l) => /^GET \/boards/.test(l))).toEqual(tried.filter((l) => /^GET \/boards\S* -$/.test(l)));
    expect(tried.some((l) => /^GET \/boards\/\S+ -$/.test(l))).toBe(true);
    expect(tried.some((l) => /^PATCH \/boards\/\S+ bob$/.test(l))).toBe(true);
    expect(buggy.log.filter((l) => /^GET \/pages\/\S+ (bob|admin)$/.test(l))).toEqual([]);
    expect(buggy.log.some((l) => /^DELETE \/pages\/\S+ bob$/.test(l))).toBe(true);
  });

  it("the JSON report carries each step's actor; no token shows in any output or file", async () => {
    const doc = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as {
      findings: Array<{ code: string; steps: Array<{ actor?: string | null }> }>;
    };
    const anonymous = doc.findings.find((f) => f.code === 'E_AUTHZ_ANONYMOUS')!;
    expect(anonymous.steps.map((s) => s.actor)).toEqual(['alice', null, 'alice']);
    const files = await readdir(path.join(dir, 'found', 'resources'));
    const texts = [run.out, run.err, await readFile(path.join(dir, 'report.json'), 'utf8')];
    for (const f of files) texts.push(await readFile(path.join(dir, 'found', 'resources', f), 'utf8'));
    for (const token of Object.values(AUTHZ_TOKENS)) for (const t of texts) expect(t).not.toContain(token);
  });

  it("each replay sends the other actor's request as that actor (or with none): it fails on the buggy twin and passes on the correct one", async () => {
    const replays = path.join(dir, 'found');
    for (const name of [
      'finding_authz_other_write_note_delete',
      'finding_authz_anonymous_note_update',
      'finding_authz_other_read_note_get',
      'finding_authz_role_stats_get',
    ]) {
      const onBuggy = await flow(replays, ['run', `${name}.check`], buggy);
      expect(onBuggy.code, `${name}\n${onBuggy.out}${onBuggy.err}`).toBe(1);
      const onFixed = await flow(replays, ['run', `${name}.check`], fixed);
      expect(onFixed.code, `${name}\n${onFixed.out}${onFixed.err}`).toBe(0);
    }
    const text = await readFile(path.join(replays, 'resources', 'finding_authz_anonymous_note_update.yaml'), 'utf8');
    expect(text).toMatch(/ {2}check:\n {4}method: PATCH\n {4}path: \/notes\/\{\{finding_authz_anonymous_note_update\.id\}\}\n {4}depends_on:/);
  }, 60_000);
});

describe('no false alarm', () => {
  it('the correct twin gives no finding, though every pair was tried', async () => {
    const dir = await writeProject(authzProject());
    const { code, out, err } = await flow(dir, [...EXPLORE, '--authz'], fixed);
    expect(err).toBe('');
    expect(found(out)).toEqual([]);
    expect(out).toMatch(/^authz: \d+ cross-actor attempt\(s\) \(.*alice -> bob \d+.*\)$/m);
    // every attempt of every pair refused: what an app-sec tester checks first
    const refused = /^ {2}refused \(a non-2xx, or a 2xx with none of the owner's data\): (.*)$/m.exec(out);
    expect(refused, out).not.toBeNull();
    for (const pair of refused![1].split(', ')) expect(pair).toMatch(/^.+ -> .+ (\d+) of \1$/);
    expect(code).toBe(0);
  }, 90_000);

  it('a note declared shared with every actor is not reported read or changed by bob on the buggy twin; with no credentials it still is', async () => {
    const files = authzProject();
    files['resources/notes.yaml'] = files['resources/notes.yaml'].replace('shared: { with: [admin] }', 'shared: true');
    const dir = await writeProject(files);
    const { out } = await flow(dir, [...PASS, '--authz'], buggy);
    expect(found(out)).toEqual(['E_AUTHZ_ANONYMOUS note.update', 'E_AUTHZ_ANONYMOUS page.create', 'E_AUTHZ_ROLE page.feature', 'E_AUTHZ_ROLE stats.get']);
  }, 90_000);

  it('without --authz, explore sends every request as the actor that made the instance: none of these bugs shows', async () => {
    const dir = await writeProject(authzProject());
    const { code, out } = await flow(dir, EXPLORE, buggy);
    expect(found(out)).toEqual([]);
    expect(out).not.toContain('authz:');
    expect(code).toBe(0);
  }, 90_000);
});

// the fixture is a plain project: it lints clean and its happy path passes on both twins
it('the fixture project passes flow run on both twins', async () => {
  const dir = await writeProject(authzProject());
  for (const api of [buggy, fixed]) expect((await flow(dir, ['run', '--all', '--openapi', 'openapi.yaml'], api)).code).toBe(0);
}, 60_000);
