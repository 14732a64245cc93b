// An issue tracker that answers as a real one (Redmine 5) does, for the tests of what a run, its
// clean-up and calibrate read in its answers: projects, issues under a project, time entries on
// an issue, with an activity from a fixed list. An API key in `X-Tracker-Key`: the admin's, or a
// user's who may create and change issues but not delete them (403) nor create projects.
// Empty 401/403/404 bodies labelled `application/json`; a 422 `{"errors": ["Activity cannot be
// blank"]}`, a full sentence that names the field as people read it (`activity_id` is
// "Activity"); a PUT and a DELETE answer 204 with no body; paths end with `.json`; an id is
// the largest in use plus one, so a deleted one comes back (its `created_on` tells them apart);
// deleting a project deletes its issues and their time entries.
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
}

export async function startTrackerApi(): Promise<TrackerApi> {
  const projects = new Map<number, Row>();
  const issues = new Map<number, Row>();
  const entries = new Map<number, Row>();
  let clock = 0;
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
    issues.delete(id);
    for (const e of [...entries.values()].filter((x) => x.issue_id === id)) entries.delete(e.id);
  };
  const collections: Record<string, { rows: Map<number, Row>; key: string; remove: (id: number) => void; adminDeletes: boolean }> = {
    projects: { rows: projects, key: 'project', remove: removeProject, adminDeletes: true },
    issues: { rows: issues, key: 'issue', remove: removeIssue, adminDeletes: true },
    time_entries: { rows: entries, key: 'time_entry', remove: (id) => entries.delete(id), adminDeletes: false },
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
    } else {
      if (!issues.has(Number(b.issue_id))) errors.push('Issue cannot be blank');
      if (!ACTIVITIES.some((a) => a.id === Number(b.activity_id))) errors.push('Activity cannot be blank');
      if (blank(b.hours)) errors.push('Hours cannot be blank');
    }
    if (errors.length) return json(res, 422, { errors });
    const { rows, key } = collections[name];
    // a creation time one second after the last: two rows never share one
    const row: Row = { ...b, id: nextId(rows), created_on: new Date(Date.UTC(2026, 0, 1) + ++clock * 1000).toISOString() };
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
      const one = /^\/(projects|issues|time_entries)\/(\d+)\.json$/.exec(req.path);
      const c = one ? collections[one[1]] : undefined;
      const row = c?.rows.get(Number(one![2]));
      if (!c || !row) return empty(res, 404);
      if (req.method === 'GET') return json(res, 200, { [c.key]: row });
      if (req.method === 'PUT') {
        Object.assign(row, wrapped(req, c.key), { id: row.id });
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
  return Object.assign(srv, { projects, issues, entries });
}
