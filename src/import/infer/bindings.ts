// Where each placeholder's value comes from, in order of strength of the grounding:
// an OpenAPI link, a collection script that stores a response field, a value seen in traffic,
// the one credential the collection's create issues (`{token}` under `/api-tokens`: `secret`;
// under `/invite` in a read, when a create's answer ties the word to it: issued.ts),
// the path itself (`/pets/{petId}` names a pet, and the operation creating pets returns `id`;
// docs/format.md#r2's own example), the value the create sends when its answer has none
// (sent-ids.ts), a field of that exact name that one other resource extracts, and else a
// variable the user supplies on each run (`<SET_VIA_--var>`).
import { SET_VIA_VAR, type TemplateValue } from '../../project/index.js';
import { evidenceText, type ObservedOperation } from '../observed.js';
import type { InferContext } from './context.js';
import type { DraftOperation } from './draft.js';
import { endpointId, type Endpoint } from './endpoints.js';
import type { Extractions } from './extractions.js';
import { findIdField } from './id-fields.js';
import { issuedFor } from './issued.js';
import { isCredentialName, singular, snake } from './names.js';
import { collectionShape, isVarSegment, segmentText, shapeOf, type PathPart } from './paths.js';
import { exampleOf, fieldsNamed, refText, type SentId } from './sent-ids.js';
import { drawnValue, type KeyedCreate } from './keyed.js';
import { fieldText, ValueIndex } from './traffic.js';
import type { ParentRead } from './parent-reads.js';

export interface Bound {
  /** the text to put in the YAML: `{{pet.id}}`, `{{env.x}}`, `{{secret.X}}`, or a literal */
  ref: string;
  why: string;
  /** bound for reads only: a write at the same place resolves its own (issued.ts) */
  readsOnly?: boolean;
}

type VarPart = Extract<PathPart, { kind: 'var' }>;

const POSTMAN_DYNAMIC: Record<string, string> = {
  $guid: '{{$.uuid}}',
  $randomUUID: '{{$.uuid}}',
  $isoTimestamp: '{{$.now}}',
  $randomEmail: '{{$.faker.email}}',
  $randomExampleEmail: '{{$.faker.email}}',
  $randomPhoneNumber: '{{$.faker.phone}}',
};

export class Resolver {
  private readonly byOp = new Map<ObservedOperation, Endpoint>();
  private readonly inherited = new Map<string, Bound>();
  private readonly values: ValueIndex;
  /** ids only a create's request holds (sent-ids.ts), by create and field */
  private readonly sentIds = new Map<string, SentId>();
  /** the variables holding them: never one a user gives */
  private readonly sentVars = new Set<string>();
  /** creates that answer no id whose items their parent's read lists, by collection shape (parent-reads.ts) */
  parentReads: ReadonlyMap<string, ParentRead> = new Map();

  /** `built`: the operations built so far (a create, on a shorter path, before its items) */
  constructor(
    private readonly endpoints: Endpoint[],
    private readonly ctx: InferContext,
    private readonly extractions: Extractions,
    private readonly built: ReadonlyMap<Endpoint, DraftOperation> = new Map(),
    /** the keyed creates by the shape of their item path (keyed.ts) */
    private readonly keyed: ReadonlyMap<string, KeyedCreate> = new Map(),
  ) {
    for (const e of endpoints) for (const op of e.ops) this.byOp.set(op, e);
    this.values = new ValueIndex(endpoints.filter((e) => !e.blocked).flatMap((e) => e.ops.filter((o) => o.concrete)));
  }

  private usable(p: Endpoint | undefined, consumer: Endpoint): p is Endpoint {
    return p !== undefined && !p.blocked && p !== consumer;
  }

  /** A path placeholder of `e` at segment `index`. */
  pathParam(e: Endpoint, part: VarPart, index: number): Bound {
    const key = `${shapeOf(e.segments.slice(0, index + 1))}#${part.name}`;
    const done = this.inherited.get(key);
    if (done && !done.readsOnly) return done;
    const bound = this.resolveParam(e, part, index);
    // Longer paths under the same prefix reuse the binding (`/repos/{owner}/{slug}/pulls`).
    if (!bound.ref.startsWith('{{env.') && !bound.readsOnly) this.inherited.set(key, bound);
    return bound;
  }

  private resolveParam(e: Endpoint, part: VarPart, index: number): Bound {
    if (part.style === 'variable') return this.variable(part.name, e);
    if (part.style === 'value') {
      const source = e.valueSources.get(index);
      const producer = source && this.byOp.get(source.producer);
      if (source && this.usable(producer, e)) return { ref: this.extractions.ref(producer, source.field, source.evidence), why: source.evidence };
      return { ref: part.value ?? part.name, why: `the path as sent: ${e.ops[0].evidence.file} ${e.ops[0].evidence.at}` };
    }
    return (
      this.fromLink(e, part.name) ??
      this.fromKeyed(e, part.name, index) ??
      this.fromIssued(e, part.name, index) ??
      this.fromPath(e, part.name, index) ??
      this.fromParamName(e, part.name) ??
      this.fromSameShape(e, part.name, index) ??
      this.fromCreateBody(e, part.name, index) ??
      this.fromParentRead(e, part.name, index) ??
      this.fromExtracted(e, part.name) ??
      this.userParam(e, part.name, index)
    );
  }

  /**
   * `{bucket}` in `/buckets/{bucket}` and under it, when a keyed create (keyed.ts) makes the
   * bucket there: the key the run draws, in one variable nobody else uses.
   */
  private fromKeyed(e: Endpoint, name: string, index: number): Bound | undefined {
    const k = this.keyed.get(shapeOf(e.segments.slice(0, index + 1)));
    if (!k || k.create.blocked) return undefined;
    const id = endpointId(k.create);
    if (!k.ref) {
      let base = `${k.create.resource}_${snake(k.param)}`;
      if (snake(k.param).startsWith(`${k.create.resource}_`)) base = snake(k.param);
      let varName = base;
      for (let i = 2; this.ctx.variables.has(varName); i++) varName = `${base}_${i}`;
      this.sentVars.add(varName);
      k.ref = this.ctx.userVar(
        varName,
        `the key ${id} makes its ${k.create.resource} at ({${k.param}}), drawn by the run: a run-unique part, so no run writes to an item it did not make`,
        drawnValue(k.create.resource),
      );
    }
    // the list still names the items that exist, for the reads elsewhere spelt as its field (fromExtracted)
    this.fromPath(e, name, index);
    const why =
      e === k.create
        ? `{${name}} is the key ${k.create.ops[0].key} makes its ${k.create.resource} at (${k.said}; the input has no POST on the collection): ${refText(k.ref)}, which the run draws`
        : `{${name}} names the ${k.create.resource} ${id} makes at that key: ${refText(k.ref)}, which the run draws (a key a list gives is someone's)`;
    return { ref: k.ref, why };
  }

  /**
   * `{linkId}` in `/features/{featureName}/link/{linkId}`, when the create on that collection
   * answers no id and the parent's read lists its items (parent-reads.ts): the `id` of the item
   * that read finds, an operation of this resource.
   */
  private fromParentRead(e: Endpoint, name: string, index: number): Bound | undefined {
    const found =
      isVarSegment(e.segments[index]) && /^id$|(^|_)id$|[a-z]Id$/i.test(name) ? this.parentReads.get(shapeOf(e.segments.slice(0, index))) : undefined;
    if (!found || found.create.resource !== e.resource) return undefined;
    const why = `{${name}} of ${e.ops[0].key} names an item of the collection ${found.create.ops[0].key} posts to; ${found.why}`;
    return { ref: this.extractions.ref(found.finder, ['id'], why, found.list), why };
  }

  /** What the creates' bodies must read, and who reads it after them (sent-ids.ts). */
  sent(): SentId[] {
    return [...this.sentIds.values()];
  }

  private fromLink(e: Endpoint, name: string): Bound | undefined {
    const opId = e.ops[0].operationId;
    if (!opId) return undefined;
    for (const producer of this.endpoints) {
      if (!this.usable(producer, e)) continue;
      for (const op of producer.ops) {
        for (const link of op.links) {
          const field = link.operationId === opId ? link.parameters[name] : undefined;
          if (!field) continue;
          const listPath = topLevelList(op, field) ? [] : undefined;
          const why = `OpenAPI link ${link.name} (${link.evidence.file} ${link.evidence.at}) passes ${fieldText(field)} of ${endpointId(producer)}'s response as {${name}}`;
          return { ref: this.extractions.ref(producer, field, why, listPath), why };
        }
      }
    }
    return undefined;
  }

  /**
   * `{token}` in `/api-tokens/{token}`, when the create on `/api-tokens` answers one credential
   * (`secret`), or in a read of `/invite/{token}` when a create's answer ties `invite` to it
   * (issued.ts): the run's own instance, and the runner hides the value in every output as it
   * hides any credential an answer holds.
   */
  private fromIssued(e: Endpoint, name: string, index: number): Bound | undefined {
    const found = issuedFor(this.endpoints, e, name, index, (p) => this.usable(p, e));
    return found && { ref: this.extractions.ref(found.create, found.field.path, found.why), why: found.why, readsOnly: found.readsOnly };
  }

  private fromPath(e: Endpoint, name: string, index: number): Bound | undefined {
    const word = index > 0 ? segmentText(e.segments[index - 1]) : undefined;
    if (!word) return undefined;
    const resource = singular(snake(word));
    // `/checks/` and `/checks/{uuid}`: a trailing slash does not make another collection.
    const collection = collectionShape(e.segments.slice(0, index));
    const ofResource = this.endpoints.filter((p) => this.usable(p, e) && p.resource === resource);
    // The same collection first; else the resource wherever it is created or listed
    // (`/client/features/{featureName}` reads what `POST /projects/{projectId}/features` made).
    const here = ofResource.filter((p) => collectionShape(p.segments) === collection);
    const elsewhere = ofResource.filter((p) => !here.includes(p) && rank(p) < 2).sort(byRankThenLength);
    for (const producer of [...here.sort(byRank), ...elsewhere]) {
      const found = findIdField(producer, name, resource);
      if (!found) continue;
      const why = `{${name}} follows /${word} in ${e.ops[0].key}, so it names a ${resource}; ${endpointId(producer)} (${producer.ops[0].key}) returns ${fieldText(found.path)} (${found.evidence.file} ${found.evidence.at})`;
      return { ref: this.extractions.ref(producer, found.path, why, found.listPath), why };
    }
    return undefined;
  }

  /** `{featureName}`, `{feature_id}`: a parameter whose name spells a resource the input creates or lists. */
  private fromParamName(e: Endpoint, name: string): Bound | undefined {
    const m = /^([a-z][A-Za-z0-9]*?)(?:Name|Id|_name|_id)$/.exec(name);
    if (!m) return undefined;
    const resource = singular(snake(m[1]));
    const producers = this.endpoints.filter((p) => this.usable(p, e) && p.resource === resource && rank(p) < 2).sort(byRankThenLength);
    for (const producer of producers) {
      const found = findIdField(producer, name, resource);
      if (!found) continue;
      const why = `{${name}} of ${e.ops[0].key} names a ${resource} (its name says so); ${endpointId(producer)} (${producer.ops[0].key}) returns ${fieldText(found.path)} (${found.evidence.file} ${found.evidence.at})`;
      return { ref: this.extractions.ref(producer, found.path, why, found.listPath), why };
    }
    return undefined;
  }

  /**
   * `{child}` in `/projects/{projectId}/features/{child}/dependencies`, where the paths of that
   * shape (shorter ones, resolved first) name their item `{featureName}`, bound to
   * `{{feature.name}}`: one place of one URL template names one thing, whatever the name.
   */
  private fromSameShape(e: Endpoint, name: string, index: number): Bound | undefined {
    const shape = shapeOf(e.segments.slice(0, index + 1));
    const found = new Map<string, { other: string; why: string }>();
    for (const [key, bound] of this.inherited) {
      const at = key.lastIndexOf('#');
      if (key.slice(0, at) === shape && key.slice(at + 1) !== name) found.set(bound.ref, { other: key.slice(at + 1), why: bound.why });
    }
    if (found.size !== 1) return undefined;
    const [[ref, { other, why }]] = [...found];
    return { ref, why: `{${name}} of ${e.ops[0].key} stands where {${other}} does in the paths ${shape}: ${why}` };
  }

  /**
   * `{labelValue}` in `/lists/{{list.name}}/labels/{labelValue}`, when the create on that
   * collection answers no id but sends the field the parameter names (sent-ids.ts): the
   * example it sends, held in one variable that its body reads too. Only right under an
   * instance that a create of the run makes.
   */
  private fromCreateBody(e: Endpoint, name: string, index: number): Bound | undefined {
    const word = index > 0 ? segmentText(e.segments[index - 1]) : undefined;
    if (!word || !isVarSegment(e.segments[index])) return undefined;
    const parent = this.parentCreate(e, index);
    if (!parent) return undefined;
    const resource = singular(snake(word));
    const collection = collectionShape(e.segments.slice(0, index));
    for (const create of this.endpoints) {
      if (!this.usable(create, e) || create.method !== 'POST' || collectionShape(create.segments) !== collection) continue;
      const draft = this.built.get(create);
      const field = draft && fieldsNamed(draft, name, resource)[0];
      if (!draft || !field) continue;
      const key = `${create.key}#${field}`;
      let sent = this.sentIds.get(key);
      if (!sent) {
        const example = exampleOf((draft.body as Record<string, TemplateValue>)[field])!;
        const body = create.ops[0].requestBody;
        const at = body?.fields.find((f) => f.path.length === 1 && f.path[0] === field)?.evidence ?? body?.evidence;
        const from = at ? `, ${evidenceText(at)}` : '';
        const ref = this.ctx.userVar(
          this.freeName(this.paramVarName(name, word), example.literal),
          `the ${field} ${endpointId(create)} sends (the input's example${from}), which {${name}} of ${e.ops[0].key} names`,
          example.literal,
        );
        const unique = example.unique
          ? `; without a run-unique part: it is made under ${refText(parent.ref)}, which the run creates, so no run finds it taken`
          : '';
        sent = {
          create,
          field,
          ref,
          why: `${refText(ref)}: the input's example ${JSON.stringify(example.literal)}${from}, which {${name}} of ${e.ops[0].key} reads to name what this create made (its answer returns no id)${unique}`,
          consumers: [],
        };
        this.sentIds.set(key, sent);
      }
      if (!sent.consumers.includes(e)) sent.consumers.push(e);
      const why = `{${name}} follows /${word} in ${e.ops[0].key}, so it names a ${resource} by its ${field}; ${endpointId(create)} (${create.ops[0].key}) returns no id and sends it in its body: both read ${refText(sent.ref)}, under ${refText(parent.ref)}, which ${endpointId(parent.producer)} creates`;
      return { ref: sent.ref, why };
    }
    return undefined;
  }

  /**
   * `{appName}` in `/metrics/instances/{appName}/usage`, when the application resource extracts
   * `appName` (for `/metrics/applications/{appName}`) and no other resource extracts a field of
   * that name: the placeholder is spelt as that one field. Not a bare `id` or `name`, which
   * every resource has. A write bound so is still sent only for what the run made (ownership).
   */
  private fromExtracted(e: Endpoint, name: string): Bound | undefined {
    if (snake(name).split('_').filter(Boolean).length < 2) return undefined;
    const found = this.extractions.named(name).filter((x) => x.resource !== e.resource);
    if (new Set(found.map((x) => x.resource)).size !== 1) return undefined;
    const [x] = found.sort((a, b) => rank(a.producer) - rank(b.producer));
    const why = `{${name}} of ${e.ops[0].key} is spelt as the field ${name} that ${endpointId(x.producer)} (${x.producer.ops[0].key}) extracts, and no other resource extracts a field of that name (${x.why})`;
    return { ref: x.ref, why };
  }

  /** The instance the path names right before `index`, when a create's answer names it (a parent the run makes). */
  private parentCreate(e: Endpoint, index: number): { ref: string; producer: Endpoint } | undefined {
    for (let i = index - 1; i >= 0; i--) {
      const part = [...e.segments[i]].reverse().find((p): p is VarPart => p.kind === 'var');
      if (!part) continue;
      const ref = this.inherited.get(`${shapeOf(e.segments.slice(0, i + 1))}#${part.name}`)?.ref;
      const producer = ref === undefined ? undefined : this.extractions.producerOf(ref);
      return producer && producer.method === 'POST' && producer.name.kind === 'collection' && ref ? { ref, producer } : undefined;
    }
    return undefined;
  }

  /** `{id}` after /labels is `label_id`; `{labelValue}` is `label_value`. */
  private paramVarName(name: string, word: string | undefined): string {
    const generic = /^(id|uuid|key|name|slug)$/i.test(name);
    return generic && word ? `${singular(snake(word))}_${snake(name)}` : snake(name) || name;
  }

  /** A name for a variable holding `value`: one that holds it already, or one nobody uses. */
  private freeName(base: string, value: TemplateValue): string {
    for (let i = 1; ; i++) {
      const name = i === 1 ? base : `${base}_${i}`;
      const v = this.ctx.variables.get(name);
      if (!v || (this.sentVars.has(name) && v.value === value)) {
        this.sentVars.add(name);
        return name;
      }
    }
  }

  private userParam(e: Endpoint, name: string, index: number): Bound {
    const word = index > 0 ? segmentText(e.segments[index - 1]) : undefined;
    let varName = this.paramVarName(name, word);
    // a variable that holds a create's example is not the one a user gives
    for (let i = 2; this.sentVars.has(varName); i++) varName = `${this.paramVarName(name, word)}_${i}`;
    const why = `path parameter {${name}} of ${e.ops[0].key}; no operation in the input returns it`;
    return { ref: this.ctx.userVar(varName, why), why: `${why}: supplied on each run` };
  }

  /** A collection variable `{{name}}` used by `consumer`. */
  variable(name: string, consumer: Endpoint): Bound {
    const dynamic = POSTMAN_DYNAMIC[name];
    if (dynamic) return { ref: dynamic, why: `Postman dynamic variable {{${name}}}` };
    const first = consumer.ops[0].order;
    const setters = [...this.byOp.entries()]
      .flatMap(([op, p]) => op.sets.filter((s) => s.variable === name && s.field).map((s) => ({ op, p, s })))
      .filter(({ p }) => this.usable(p, consumer))
      .sort((a, b) => Number(b.op.order < first) - Number(a.op.order < first) || a.op.order - b.op.order);
    const hit = setters[0];
    if (hit) {
      const why = `{{${name}}} is stored from ${fieldText(hit.s.field!)} of "${hit.op.summary ?? hit.op.key}" (${hit.s.evidence.file} ${hit.s.evidence.at}: "${hit.s.evidence.quote}")`;
      return { ref: this.extractions.ref(hit.p, hit.s.field!, why), why };
    }
    const declared = this.ctx.api.variables.find((v) => v.name === name);
    const where = declared ? `declared in ${declared.evidence.file}` : 'used by the collection, set by nothing in it';
    if (isCredentialName(name) || declared?.credential)
      return { ref: this.ctx.secret(name, `{{${name}}}: ${where}`), why: `credential variable {{${name}}} (${where})` };
    const value = declared?.value && !declared.credential ? declared.value : SET_VIA_VAR;
    return { ref: this.ctx.userVar(name, `{{${name}}}: ${where}`, value), why: `variable {{${name}}} (${where})` };
  }

  /** A literal sent by `consumer` that an earlier response returned (traffic only). */
  value(text: string, consumer: Endpoint): Bound | undefined {
    if (!consumer.ops[0].concrete) return undefined;
    const source = this.values.find(text, consumer.ops[0].order);
    const producer = source && this.byOp.get(source.producer);
    if (!source || !this.usable(producer, consumer)) return undefined;
    return { ref: this.extractions.ref(producer, source.field, source.evidence), why: source.evidence };
  }
}

/** create before list before anything else */
function rank(p: Endpoint): number {
  // a create known by its answer (a signup) makes one too, but is no producer to read ids from
  if (p.answerCreate) return 2;
  if (p.name.kind === 'collection' && p.method === 'POST') return 0;
  if (p.name.kind === 'collection' && p.method === 'GET') return 1;
  return 2;
}

const byRank = (a: Endpoint, b: Endpoint): number => rank(a) - rank(b);
/** …and, among producers elsewhere, the shortest path: `/refunds` over `/application_fees/{id}/refunds` */
const byRankThenLength = (a: Endpoint, b: Endpoint): number => rank(a) - rank(b) || a.segments.length - b.segments.length;

function topLevelList(op: ObservedOperation, field: ReadonlyArray<string | number>): boolean {
  const first = field[0];
  if (typeof first === 'number') return false;
  return op.responses.some((r) => r.fields.some((f) => f.listPath?.length === 0 && f.path[0] === first));
}
