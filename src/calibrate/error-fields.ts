// The body fields a 400/422 answer names, read from the error shapes real frameworks send.
// One row per shape: each reads only its own keys, so a shape is added (or fixed) alone.
// Names come back dotted (`data.id`): a nested field is a path of keys.
import { escapeRegExp } from '../project/index.js';

type Json = unknown;
type Obj = Record<string, Json>;

interface Shape {
  /** what sends it, for the tests and the reader */
  name: string;
  fields(body: Obj): string[];
}

const isObj = (v: Json): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const list = (v: Json): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const str = (v: Json): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** `#/data/id`, `/data/attributes/title` -> `data.id`, `data.attributes.title` (JSON pointer, RFC 6901). */
function fromPointer(p: string): string | undefined {
  const parts = p
    .replace(/^#?\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.length ? parts.join('.') : undefined;
}

export const SHAPES: readonly Shape[] = [
  {
    // GraphQL-style errors over REST (Directus): errors[].extensions.field
    name: 'errors[].extensions.field',
    fields: (b) => list(b.errors).flatMap((e) => (isObj(e.extensions) ? (str(e.extensions.field) ?? []) : [])),
  },
  {
    // Cornice / colander (Kinto): details[].name, in the body
    name: 'Cornice details[].name',
    fields: (b) => list(b.details).flatMap((d) => (str(d.name) && (d.location === undefined || d.location === 'body') ? [str(d.name)!] : [])),
  },
  {
    // RFC 9457 problem details: invalid-params[].name, and the `errors[]` extension with a pointer
    name: 'RFC 9457 invalid-params[].name / errors[].pointer',
    fields: (b) => [
      ...list(b['invalid-params']).flatMap((p) => str(p.name) ?? []),
      ...list(b.errors).flatMap((e) => (str(e.pointer) ? (fromPointer(str(e.pointer)!) ?? []) : [])),
    ],
  },
  {
    // FastAPI / Pydantic: detail[].loc, ['body', 'data', 'id'] -> data.id
    name: 'FastAPI detail[].loc',
    fields: (b) =>
      list(b.detail).flatMap((d) => {
        if (!Array.isArray(d.loc) || d.loc[0] !== 'body') return [];
        const rest = d.loc.slice(1).filter((s): s is string => typeof s === 'string');
        return rest.length ? [rest.join('.')] : [];
      }),
  },
  {
    // Rails and Laravel: errors: { title: ["can't be blank"] }
    name: 'Rails/Laravel errors: {field: [...]}',
    fields: (b) => (isObj(b.errors) ? Object.entries(b.errors).flatMap(([k, v]) => (Array.isArray(v) || typeof v === 'string' ? [k] : [])) : []),
  },
  {
    // Spring: errors[].field (BindingResult's FieldError)
    name: 'Spring errors[].field',
    fields: (b) => list(b.errors).flatMap((e) => str(e.field) ?? []),
  },
  {
    // JSON:API: errors[].source.pointer, /data/attributes/title
    name: 'JSON:API errors[].source.pointer',
    fields: (b) => list(b.errors).flatMap((e) => (isObj(e.source) && str(e.source.pointer) ? (fromPointer(str(e.source.pointer)!) ?? []) : [])),
  },
  {
    // express-validator: errors[].path (v7) or errors[].param (v6), in the body
    name: 'express-validator errors[].path',
    fields: (b) =>
      list(b.errors).flatMap((e) => {
        const name = str(e.path) ?? str(e.param);
        return name && (e.location === undefined || e.location === 'body') ? [name] : [];
      }),
  },
  {
    // Ajv behind a framework (LoopBack 4): error.details[].info.missingProperty, under its path
    name: 'Ajv missingProperty',
    fields: (b) =>
      list(b.details).flatMap((d) => {
        const missing = isObj(d.info) ? str(d.info.missingProperty) : undefined;
        if (!missing) return [];
        const at = typeof d.path === 'string' ? fromPointer(d.path) : undefined;
        return [at ? `${at}.${missing}` : missing];
      }),
  },
  {
    // Unleash and other Ajv-behind-OpenAPI servers: details[].path, a JSON pointer to the field
    // itself (`/body/features`); a pointer into params or query names no body field
    name: 'details[].path (JSON pointer)',
    fields: (b) =>
      list(b.details).flatMap((d) => {
        if (isObj(d.info) && str(d.info.missingProperty)) return [];
        const p = str(d.path);
        if (!p?.startsWith('/') && !p?.startsWith('#/')) return [];
        const at = fromPointer(p);
        if (!at) return [];
        const [first, ...rest] = at.split('.');
        if (first === 'body') return rest.length ? [rest.join('.')] : [];
        return ['params', 'query', 'headers', 'path', 'querystring'].includes(first) ? [] : [at];
      }),
  },
  {
    // LoopBack 3 / juggler: details.codes: { title: ['presence'] }
    name: 'LoopBack juggler details.codes',
    fields: (b) =>
      isObj(b.details) && isObj(b.details.codes)
        ? Object.entries(b.details.codes).flatMap(([k, v]) => (Array.isArray(v) && v.includes('presence') ? [k] : []))
        : [],
  },
];

// Words a message may put where a field's name goes (`The \`/body/x\` property is required`):
// never a field.
const NOT_FIELDS = new Set(['property', 'field', 'parameter', 'value', 'body', 'it', 'this', 'that', 'data', 'request', 'input']);

// Messages that name a required field, for servers that send only text.
const MESSAGES = [
  /required property ['"]([^'"]+)['"]/gi,
  /['"`]?([A-Za-z_][\w.-]*)['"`]? (?:is|are) (?:required|missing)/gi,
  /missing (?:required )?(?:field|property|parameter)s?:? ['"`]?([A-Za-z_][\w.-]*)/gi,
  /['"`]([A-Za-z_][\w.-]*)['"`] (?:can't|cannot|must not|may not) be (?:blank|empty|null)/gi,
];

/** A field name is a dotted path of plain keys; anything else (a sentence, markup) is not one. */
const FIELD = /^[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*){0,7}$/;

/**
 * The body fields a 400/422 answer names, in order, each once. `body` is the answer's text
 * (a bounded excerpt); a JSON body is read through every shape above, at its top level and
 * under `error` (some frameworks wrap it), then messages are read as text.
 */
export function namedFields(body: string, known: readonly string[] = []): string[] {
  const names = new Set<string>();
  let json: Json;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  for (const root of isObj(json) ? [json, ...(isObj(json.error) ? [json.error] : [])] : []) {
    for (const shape of SHAPES) for (const f of shape.fields(root)) if (FIELD.test(f)) names.add(f);
  }
  if (!names.size && isObj(json)) for (const f of sentenceFields(sentencesOf(json), known)) names.add(f);
  // `details: [{message: "You must specify username or email"}]`: a known field named in a sentence
  if (!names.size && isObj(json)) for (const f of sentenceFields(detailMessages(json), known, false)) names.add(f);
  // messages are read in the JSON's strings (a quote in JSON text is escaped), else in the text
  const text = json === undefined ? body : stringsOf(json).join('\n');
  if (!names.size) for (const re of MESSAGES) for (const m of text.matchAll(re)) if (FIELD.test(m[1]) && !NOT_FIELDS.has(m[1].toLowerCase())) names.add(m[1]);
  return [...names];
}

/** Every string of a JSON value, bounded (an answer is untrusted). */
function stringsOf(v: Json, depth = 0, out: string[] = []): string[] {
  if (out.length >= 200 || depth > 8) return out;
  if (typeof v === 'string') out.push(v.slice(0, 1000));
  else if (Array.isArray(v)) for (const x of v.slice(0, 100)) stringsOf(x, depth + 1, out);
  else if (isObj(v)) for (const x of Object.values(v).slice(0, 100)) stringsOf(x, depth + 1, out);
  return out;
}

/** Rails' full messages (Redmine): `errors: ["Subject cannot be blank"]`, plain sentences. */
function sentencesOf(json: Obj): string[] {
  const out: string[] = [];
  for (const root of [json, ...(isObj(json.error) ? [json.error] : [])]) {
    if (Array.isArray(root.errors)) for (const e of root.errors.slice(0, 50)) if (str(e)) out.push(str(e)!.slice(0, 300));
  }
  return out;
}

/** `details[].message`, sentences with no field of their own (Unleash's Joi errors). */
function detailMessages(json: Obj): string[] {
  return list(json.details)
    .slice(0, 50)
    .flatMap((d) => (str(d.message) && d.path === undefined ? [str(d.message)!.slice(0, 300)] : []));
}

/** `project_id` -> ['project'], `dueDate` -> ['due', 'date']: the words a sentence uses for a field. */
function wordsOf(key: string): string[] {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  return words.length > 1 && ['id', 'ids'].includes(words.at(-1)!) ? words.slice(0, -1) : words;
}

/** A subject that starts with an article or a determiner: a thing the sentence talks about, not an attribute's label. */
const ARTICLE = /^(?:a|an|the|this|that|these|those|its|their|each|every)\s/i;
/** A sentence's subject before its verb, as Rails writes it: `Due date must be …` -> `Due date`. */
const SUBJECT = /^([A-Za-z][A-Za-z0-9]*(?: [A-Za-z0-9]+){0,2}?) (?:can't|cannot|can not|must|is|are|has|have|should|doesn't|does not|was|were|isn't)\b/;

/**
 * The field each sentence names: a known property (the schema's, the body's) whose words the
 * sentence holds, case-insensitive, whole words, the longest match; else (with `subjects`) the
 * sentence's subject, as a field name (`Subject cannot be blank` -> `subject`).
 */
function sentenceFields(sentences: readonly string[], known: readonly string[], subjects = true): string[] {
  const out: string[] = [];
  const candidates = known.flatMap((k) => {
    const words = FIELD.test(k) ? wordsOf(k.split('.').at(-1)!) : [];
    return words.length ? [{ k, n: words.length, re: new RegExp(`\\b${words.map(escapeRegExp).join('[\\s_-]+')}\\b`, 'i') }] : [];
  });
  for (const s of sentences) {
    const hit = candidates.filter((c) => c.re.test(s)).sort((a, b) => b.n - a.n)[0];
    if (hit) {
      out.push(hit.k);
      continue;
    }
    if (!subjects) continue;
    const subject = SUBJECT.exec(s)?.[1];
    // Rails names an attribute by its label (`Parent task`); a subject with an article is a
    // thing the sentence talks about (`An issue cannot be linked to one of its subtasks`)
    if (!subject || ARTICLE.test(subject)) continue;
    const name = subject.trim().toLowerCase().replace(/\s+/g, '_');
    if (FIELD.test(name) && !NOT_FIELDS.has(name)) out.push(name);
  }
  return out;
}
