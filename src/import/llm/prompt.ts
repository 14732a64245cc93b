// What `flow import --llm` sends a model: the import procedure in our own words, the inputs,
// and what the deterministic readers observed in them (each fact with its evidence), so the
// model grounds its answer in the same facts the gates check it against. Nothing is sent
// unless --llm is given.
import { strategyKeys } from '../../lint/index.js';
import { AUTH_STRATEGIES } from '../../project/index.js';
import { createRedactor } from '../../redact/index.js';
import { PLAN_HEADINGS } from '../infer/draft.js';
import type { ObservedApi } from '../observed.js';
import type { AnswerFile } from '../check/answer.js';

/** Inputs longer than this are cut (the observed model still covers all of them). */
const MAX_INPUT_CHARS = 60_000;
/** The observed model is cut at this many characters. */
const MAX_OBSERVED_CHARS = 60_000;

const SECTIONS = Object.values(PLAN_HEADINGS);

export function systemPrompt(): string {
  return `You turn an HTTP API description into a reqflow project: YAML files that describe the API as actors (identities and how they log in), resources (entities and their operations, each one HTTP request) and the dependencies between operations.

Rules, all binding:
1. Invent nothing. Every path, field name and status code you write appears in the input or in the observed model given with it. What the input does not state is an open question, never a guess.
2. An inference is allowed only when the input grounds it (a path with {order_id} needs an order first); any other inference is an open question.
3. Leave keys out rather than fill them: no empty depends_on, no empty actor, no placeholder body fields.
4. Use only the format's keys (below); the parser ignores any other key silently.
5. Mark every inference under _provenance.evidence, naming the input and where in it.
6. Skip whatever an open question blocks. Fewer solid resources beat invented ones.
7. When you are asked to fix problems, edit the files you were given; do not start again.

Answer in two parts, in this order:
A. The plan, in Markdown, with exactly these sections as "## " headings, in this order: ${SECTIONS.map((s) => `"${s}"`).join(', ')}.
   - ${PLAN_HEADINGS.actors}: per actor, who it is, its strategy, what its login returns.
   - ${PLAN_HEADINGS.resources}: a table with columns operation, method, path, actor, depends_on, expect_status, extracts.
   - ${PLAN_HEADINGS.variables}: a table with columns variable, produced by, consumed by.
   - ${PLAN_HEADINGS.environment}: a table with columns variable, kind (plain or secret), notes.
   - ${PLAN_HEADINGS.questions}: numbered, specific; every ungrounded inference.
B. The files, each in a fenced block whose info string is its path (\`\`\`yaml resources/orders.yaml), in this order: flow.yaml, environments/<env>.yaml, actors/<actor>.yaml (one per actor), resources/<plural>.yaml (one per resource).

The format, in short:
- flow.yaml: version: 1, name, default_environment, imports: [environments/*.yaml, actors/*.yaml, resources/*.yaml]. Only these three folders are read, one level deep.
- environments/<env>.yaml: name, variables: { baseUrl: scheme://host[:port] only (a path prefix goes into each operation's path), other variables }. A value nobody knows yet is the text <SET_VIA_--var>.
- actors/<actor>.yaml: name, auth: { strategy: one of ${AUTH_STRATEGIES.join(', ')}, and that strategy's keys }, session: { ttl }, inject: { headers: { ... } }. The keys of each strategy (* required): ${strategyKeyList()}. simple's extract reads the login response (token: $.path).
- resources/<plural>.yaml: name (singular), operations: { <op>: { method, path (starts with /, may hold {{resource.field}}), actor (omit for public operations), query_params, headers, body, expect_status, extract: { field: $.data.path }, assert: [ "$.data.x == 'y'" ], depends_on: [resource.op] (only for a state change the input states; data needs are implicit through {{resource.field}}), _provenance: { evidence: { ... } } } }.
- References: {{env.X}}, {{secret.X}}, {{<actor>.<field>}}, {{<resource>.<field>}} (a field some operation of that resource extracts). Every password, token and key is {{secret.NAME}}, never a value.

Check before you answer: every path, field and status code traces to the input or is an open question; every {{x.y}} names a real actor, resource, env or secret; every {{env.X}} is defined in the environment; extractions are referenced by resource, not by operation; every credential is a secret; baseUrl stops at the host; depends_on and assert are lists and are left out when empty; actor is left out on operations the input describes as public (no security, no credential in any example); there is no cycle; strategy is one of the values above.`;
}

/** `api_key: key, location (header, query or cookie), name; …`: from the schema, which lint and editors check against. */
function strategyKeyList(): string {
  const parts: string[] = [];
  for (const [strategy, keys] of strategyKeys()) {
    const list = keys.map(({ key, values, required }) => `${key}${required ? '*' : ''}${values ? ` (${values.join(', ')})` : ''}`);
    parts.push(`${strategy}: ${list.join(', ')}`);
  }
  return parts.join('; ');
}

/** The first request: the inputs and what the readers observed in them. */
export function firstRequest(inputs: Array<{ file: string; text: string }>, api: ObservedApi): string {
  const parts = ['Turn this API description into a reqflow project.', ''];
  // Credentials seen in traffic (a HAR's live tokens) are never sent, not even to the model: they
  // are hidden in every form the run's redaction knows (encoded, escaped, base64).
  const redactor = createRedactor(api.credentials);
  for (const input of inputs) {
    const text = redactor.text(input.text);
    const cut = text.length > MAX_INPUT_CHARS;
    parts.push(
      `### Input \`${input.file}\`${cut ? ` (first ${MAX_INPUT_CHARS} characters)` : ''}`,
      '',
      '````',
      cut ? text.slice(0, MAX_INPUT_CHARS) : text,
      '````',
      '',
    );
  }
  const observed = JSON.stringify(observedModel(api), null, 1);
  parts.push(
    '### What the readers observed in the inputs (ground every path, field and status code in these facts)',
    '',
    '```json',
    observed.length > MAX_OBSERVED_CHARS ? `${observed.slice(0, MAX_OBSERVED_CHARS)}\n… (cut)` : observed,
    '```',
  );
  return parts.join('\n');
}

/** An edit round: the problems found and the files as they are now (rule 7: edit them). */
export function editRequest(problems: string[], files: AnswerFile[]): string {
  return [
    'The checks found these problems in your files. Edit the files to fix them (rule 7: edit, do not regenerate), keep everything else as it is, and answer with every file you changed, each in a fenced block labelled with its path. A file you do not send back stays as it is.',
    '',
    ...problems.map((p) => `- ${p}`),
    '',
    'The files as they are now:',
    '',
    ...files.flatMap((f) => [`\`\`\`yaml ${f.path}`, f.text.replace(/\n$/, ''), '```', '']),
  ].join('\n');
}

/** The observed API as compact plain data: operations, fields, statuses, security, with evidence. */
function observedModel(api: ObservedApi) {
  const where = (e: { file: string; at: string }) => `${e.file} ${e.at}`;
  return {
    servers: api.servers.map((s) => s.url),
    securitySchemes: api.schemes.map((s) => ({ id: s.id, kind: s.kind, in: s.location, name: s.paramName, tokenUrl: s.tokenUrl, evidence: where(s.evidence) })),
    operations: api.operations.map((op) => ({
      method: op.method,
      path: op.path,
      summary: op.summary,
      params: op.params.map((p) => `${p.in}:${p.name}${p.required ? ' (required)' : ''}`),
      headers: op.headers.map((h) => h.name),
      body: op.requestBody ? { kind: op.requestBody.kind, fields: op.requestBody.fields.map((f) => f.path.join('.')) } : undefined,
      responses: op.responses.map((r) => ({ status: r.status, fields: r.fields.map((f) => [...(f.listPath ?? []), ...f.path].join('.')) })),
      security: op.security === undefined ? 'not stated' : op.security.length === 0 ? 'public' : op.security.map((s) => s.scheme),
      evidence: where(op.evidence),
    })),
    variables: api.variables.map((v) => ({ name: v.name, credential: v.credential })),
  };
}
