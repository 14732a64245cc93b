// Response schemas compiled by Ajv, each once: OpenAPI 3.0 on Ajv's default draft (with the
// `nullable` and `discriminator` it supports), 3.1 on its JSON Schema 2020-12 build; `format`s
// through ajv-formats. The whole bundled document is added once, so a schema's internal
// `$ref`s (recursive ones too) resolve against it. Validation is bounded (./budget.ts):
// patterns on RE2 with their JavaScript meaning, the body measured first, the generated code on a clock.
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, Options, ValidateFunction } from 'ajv';
import { FlowError } from '../errors.js';
import { linearRegExp } from '../limits/index.js';
import { Budget, instrument } from './budget.js';
import type { Doc } from '../openapi/index.js';

const require = createRequire(import.meta.url);
const DOC_ID = 'reqflow:openapi';
/** Ajv's `code.regExp`: `code` names it in standalone code, which is never generated here. */
const regExp = Object.assign((pattern: string) => linearRegExp(pattern), { code: 'linearRegExp' });

export interface SchemaValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

export class Schemas {
  readonly #doc: Doc;
  readonly #version: '3.0' | '3.1';
  readonly #compiled = new Map<string, SchemaValidator>();
  readonly #budget: Budget;
  #ajv?: Ajv;
  #plain?: Ajv;

  /** `maxMs`: the time to check one response (budget.ts's MAX_CHECK_MS by default). */
  constructor(doc: Doc, version: '3.0' | '3.1', options: { maxMs?: number } = {}) {
    this.#budget = new Budget(options.maxMs);
    // 3.0's own keywords (boolean exclusiveMinimum, nullable without type) made JSON Schema once, on a copy.
    this.#doc = version === '3.0' ? fixOpenApi30(structuredClone(doc)) : doc;
    this.#version = version;
  }

  /**
   * The validator of the schema at `pointer` in the document, compiled on first use only.
   * It throws E_CONTRACT_LIMIT for a body past the budget (depth, values, time).
   */
  validator(pointer: string): SchemaValidator {
    let v = this.#compiled.get(pointer);
    if (!v) this.#compiled.set(pointer, (v = this.#bounded(pointer, this.#compile(pointer))));
    return v;
  }

  #bounded(pointer: string, fn: ValidateFunction): SchemaValidator {
    const budget = this.#budget;
    const bounded: SchemaValidator = (data: unknown) => {
      const ok = budget.run(pointer, data, (d) => fn(d));
      bounded.errors = fn.errors;
      return ok;
    };
    return bounded;
  }

  #compile(pointer: string): ValidateFunction {
    try {
      try {
        return compileAt((this.#ajv ??= this.#create({ discriminator: true })), pointer);
      } catch (err) {
        // Ajv's discriminator wants a const/enum tag in every oneOf branch; a description that
        // maps its branches differently is checked by oneOf alone.
        if (!/discriminator/i.test((err as Error).message)) throw err;
        return compileAt((this.#plain ??= this.#create({ discriminator: false })), pointer);
      }
    } catch (err) {
      // a `pattern` that is no regular expression, a `$ref` to nothing: the description's fault;
      // a pattern that cannot run in linear time keeps its own code
      const code = (err as { code?: unknown }).code === 'E_CONTRACT_PATTERN' ? 'E_CONTRACT_PATTERN' : 'E_CONTRACT_LOAD';
      throw new FlowError(code, `the schema at ${pointer} cannot be compiled: ${(err as Error).message}`);
    }
  }

  #create(extra: Options): Ajv {
    const options: Options = { strict: false, allErrors: true, validateSchema: false, code: { regExp, process: instrument }, ...extra };
    const AjvClass =
      this.#version === '3.1' ? (require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js')).Ajv2020 : (require('ajv') as typeof import('ajv')).Ajv;
    const ajv = new AjvClass(options);
    // the generated code's `self`: its ticks reach the budget through it (budget.ts, instrument)
    Object.assign(ajv, { budget: this.#budget });
    const addFormats = require('ajv-formats') as (ajv: Ajv, options: { mode: 'fast' | 'full' }) => Ajv;
    // Fast mode checks a format's shape by one regular expression (not the calendar: 02-30
    // passes); full mode's date-time cost 0.6 µs a value, 15 µs for a list of 25 pets.
    addFormats(ajv, { mode: 'fast' });
    ajv.addSchema(extra.discriminator ? withoutMappings(this.#doc) : withoutDiscriminators(this.#doc), DOC_ID);
    return ajv;
  }
}

function compileAt(ajv: Ajv, pointer: string): ValidateFunction {
  const fn = ajv.getSchema(`${DOC_ID}#${pointer.split('/').map(encodeURIComponent).join('/')}`);
  if (!fn) throw new Error(`no schema at ${pointer}`);
  return fn;
}

type Visit = (node: Record<string, unknown>) => void;

function walk(node: unknown, visit: Visit, seen = new Set<unknown>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    for (const x of node) walk(x, visit, seen);
    return;
  }
  visit(node as Record<string, unknown>);
  for (const v of Object.values(node)) walk(v, visit, seen);
}

/** OpenAPI 3.0 Schema Objects as the JSON Schema Ajv reads. */
function fixOpenApi30(doc: Doc): Doc {
  walk(doc, (n) => {
    for (const [flag, bound] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (typeof n[flag] !== 'boolean') continue;
      if (n[flag] && typeof n[bound] === 'number') {
        n[flag] = n[bound];
        delete n[bound];
      } else delete n[flag];
    }
    // Ajv refuses `nullable` without `type`; such a schema allows null already.
    if (typeof n.nullable === 'boolean' && n.type === undefined) delete n.nullable;
  });
  return doc;
}

/** Ajv does not read `mapping`; the const/enum of each branch says the same. */
function withoutMappings(doc: Doc): Doc {
  const copy = structuredClone(doc);
  walk(copy, (n) => {
    const d = n.discriminator;
    if (d && typeof d === 'object' && 'mapping' in d) delete (d as Record<string, unknown>).mapping;
  });
  return copy;
}

function withoutDiscriminators(doc: Doc): Doc {
  const copy = structuredClone(doc);
  walk(copy, (n) => {
    if (n.discriminator && typeof n.discriminator === 'object' && 'propertyName' in n.discriminator) delete n.discriminator;
  });
  return copy;
}
