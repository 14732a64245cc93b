// An issue tracker that answers as a real one (Redmine 5) does, for the tests of what a run, its
// clean-up and calibrate read in its answers: projects, issues under a project, time entries on
// an issue, with an activity from a fixed list. An API key in `X-Tracker-Key`: the admin's, or a
// user's who may create and change issues but not delete them (403) nor create projects.
// Empty 401/403/404 bodies labelled `application/json`; a 422 `{"errors": ["Activity cannot be
// blank"]}`, a full sentence that names the field as people read it (`activity_id` is
// "Activity"); a PUT and a DELETE answer 204 with no body; paths end with `.json`; an id is
// the largest in use plus one, so a deleted one comes back (its `created_on` tells them apart);
// deleting a project deletes its issues and their time entries. Relations between two issues
// (`POST /issues/1/relations.json` with `{"relation": {"issue_to_id": 2}}`; `/relations/1.json`):
// a missing other issue is "Related issue cannot be blank", the issue itself "Related issue is
// invalid"; a sub-task's `parent_issue_id` that names no other issue "Parent task is invalid".
// Deleting an issue deletes its relations and its sub-tasks.
import type { ServerResponse } from 'node:http';
import { json, startServer, type RecordedRequest, type TestServer } from './http-server.js';

export const ADMIN_KEY = 'admin-key-0123456789';
export const USER_KEY = 'user-key-0123456789';
export const ACTIVITIES = [
  { id: 8, name: 'Design' },
  { id: 9, name: 'Development' },
];

type Row = Record<string, unknown> & { id: number };

const empty = (res: ServerResponse, status: number): void => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': 0 }).end();
};
const nextId = (rows: Map<number, Row>) => Math.max(0, ...rows.keys()) + 1;
const blank = (v: unknown) => v === undefined || v === null || v === '';
const IDENTIFIER = /^(?!\d+$)[a-z0-9\-_]{1,100}$/;

export interface TrackerApi extends TestServer {
  projects: Map<number, Row>;
  issues: Map<number, Row>;
  entries: Map<number, Row>;
  relations: Map<number, Row>;
}

const RELATION_TYPES = ['relates', 'duplicates', 'blocks', 'precedes', 'copied_to'];

export async function startTrackerApi(): Promise<TrackerApi> {
  const projects = new Map<number, Row>();
  const issues = new Map<number, Row>();
  const entries = new Map<number, Row>();
  const relations = new Map<number, Row>();
  let clock = 0;
  // whole seconds, as the server writes them
  const started = Math.floor(Date.now() / 1000) * 1000;
  const wrapped = (req: RecordedRequest, key: string): Record<string, unknown> => {
    const b = req.json() as Record<string, unknown> | undefined;
    const inner = b?.[key];
    return inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : {};
  };
  const removeProject = (id: number) => {
    projects.delete(id);
    for (const i of [...issues.values()].filter((x) => x.project_id === id)) removeIssue(i.id);
  };
  const removeIssue = (id: number) => {
    if (!issues.delete(id)) return;
    for (const e of [...entries.values()].filter((x) => x.issue_id === id)) entries.delete(e.id);
    for (const r of [...relations.values()].filter((x) => x.issue_id === id || x.issue_to_id === id)) relations.delete(r.id);
    for (const child of [...issues.values()].filter((x) => x.parent_issue_id === id)) removeIssue(child.id);
  };
  /** Redmine's check of a sub-task's parent: another issue that exists. */
  const parentErrors = (b: Record<string, unknown>, self?: number): string[] =>
    blank(b.parent_issue_id) || (issues.has(Number(b.parent_issue_id)) && Number(b.parent_issue_id) !== self) ? [] : ['Parent task is invalid'];
  const relate = (issue: Row, req: RecordedRequest, res: ServerResponse) => {
    const b = wrapped(req, 'relation');
    const to = Number(b.issue_to_id);
    const errors: string[] = [];
    if (!issues.has(to)) errors.push('Related issue cannot be blank');
    else if (to === issue.id) errors.push('Related issue is invalid');
    else if ([...relations.values()].some((r) => (r.issue_id === issue.id && r.issue_to_id === to) || (r.issue_id === to && r.issue_to_id === issue.id)))
      errors.push('Related issue has already been taken');
    const type = typeof b.relation_type === 'string' ? b.relation_type : 'relates';
    if (!RELATION_TYPES.includes(type)) errors.push('Relation type is not included in the list');
    if (errors.length) return json(res, 422, { errors });
    const row: Row = { id: nextId(relations), issue_id: issue.id, issue_to_id: to, relation_type: type, delay: null };
    relations.set(row.id, row);
    json(res, 201, { relation: row });
  };
  const collections: Record<string, { rows: Map<number, Row>; key: string; remove: (id: number) => void; adminDeletes: boolean }> = {
    projects: { rows: projects, key: 'project', remove: removeProject, adminDeletes: true },
    issues: { rows: issues, key: 'issue', remove: removeIssue, adminDeletes: true },
    time_entries: { rows: entries, key: 'time_entry', remove: (id) => entries.delete(id), adminDeletes: false },
    relations: { rows: relations, key: 'relation', remove: (id) => relations.delete(id), adminDeletes: false },
  };
  const create = (name: string, req: RecordedRequest, admin: boolean, res: ServerResponse) => {
    const b = wrapped(req, collections[name].key);
    const errors: string[] = [];
    if (name === 'projects') {
      if (!admin) return empty(res, 403);
      if (blank(b.name)) errors.push('Name cannot be blank');
      if (blank(b.identifier)) errors.push('Identifier cannot be blank');
      else if (typeof b.identifier !== 'string' || !IDENTIFIER.test(b.identifier)) errors.push('Identifier is invalid');
      else if ([...projects.values()].some((p) => p.identifier === b.identifier)) errors.push('Identifier has already been taken');
    } else if (name === 'issues') {
      if (!projects.has(Number(b.project_id))) errors.push('Project cannot be blank');
      if (blank(b.subject)) errors.push('Subject cannot be blank');
      errors.push(...parentErrors(b));
    } else {
      if (!issues.has(Number(b.issue_id))) errors.push('Issue cannot be blank');
      if (!ACTIVITIES.some((a) => a.id === Number(b.activity_id))) errors.push('Activity cannot be blank');
      if (blank(b.hours)) errors.push('Hours cannot be blank');
    }
    if (errors.length) return json(res, 422, { errors });
    const { rows, key } = collections[name];
    // a creation time of now, one second after the last: two rows never share one
    const row: Row = { ...b, id: nextId(rows), created_on: new Date(started + ++clock * 1000).toISOString() };
    for (const f of ['project_id', 'issue_id', 'activity_id']) if (f in row) row[f] = Number(row[f]);
    rows.set(row.id, row);
    json(res, 201, { [key]: row }, { location: `/${name}/${row.id}` });
  };
  const srv = await startServer({
    '*': (req, res) => {
      const key = req.headers['x-tracker-key'];
      // a public list needs no key; any write does, and a wrong key is refused
      if (req.method === 'GET' && req.path === '/enumerations/time_entry_activities.json' && key === undefined)
        return json(res, 200, { time_entry_activities: ACTIVITIES });
      if (key !== ADMIN_KEY && key !== USER_KEY) return empty(res, 401);
      const admin = key === ADMIN_KEY;
      if (req.path === '/enumerations/time_entry_activities.json') return json(res, 200, { time_entry_activities: ACTIVITIES });
      const list = /^\/(projects|issues|time_entries)\.json$/.exec(req.path);
      if (list && req.method === 'POST') return create(list[1], req, admin, res);
      if (list && req.method === 'GET') return json(res, 200, { [list[1]]: [...collections[list[1]].rows.values()] });
      const related = /^\/issues\/(\d+)\/relations\.json$/.exec(req.path);
      if (related) {
        const issue = issues.get(Number(related[1]));
        if (!issue) return empty(res, 404);
        if (req.method === 'POST') return relate(issue, req, res);
        return json(res, 200, { relations: [...relations.values()].filter((r) => r.issue_id === issue.id || r.issue_to_id === issue.id) });
      }
      const one = /^\/(projects|issues|time_entries|relations)\/(\d+)\.json$/.exec(req.path);
      const c = one ? collections[one[1]] : undefined;
      const row = c?.rows.get(Number(one![2]));
      if (!c || !row) return empty(res, 404);
      if (req.method === 'GET') return json(res, 200, { [c.key]: row });
      if (req.method === 'PUT') {
        const b = wrapped(req, c.key);
        const errors = c.rows === issues ? parentErrors(b, row.id) : [];
        if (errors.length) return json(res, 422, { errors });
        Object.assign(row, b, { id: row.id });
        if (!blank(row.parent_issue_id)) row.parent_issue_id = Number(row.parent_issue_id);
        return void res.writeHead(204).end();
      }
      if (req.method === 'DELETE') {
        if (c.adminDeletes && !admin) return empty(res, 403);
        c.remove(row.id);
        return void res.writeHead(204).end();
      }
      return empty(res, 404);
    },
  });
  return Object.assign(srv, { projects, issues, entries, relations });
}
