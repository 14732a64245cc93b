// An OpenAPI 3.0/3.1 (or Swagger 2.0, converted) description read once per run: `$ref`s bundled by
// @apidevtools/json-schema-ref-parser (other local files inlined, internal refs kept, so a
// recursive schema stays a `$ref` Ajv follows), never fetched over the network. Each
// operation becomes a path pattern under every base path its servers give. The file and every
// file a `$ref` names are read bounded (src/limits): regular files only, never a FIFO or a
// device, each at most MAX_DESCRIPTION_BYTES, and nested at most MAX_DOCUMENT_DEPTH levels.
import { fileURLToPath } from 'node:url';
import $RefParser, { ResolverError, type FileInfo } from '@apidevtools/json-schema-ref-parser';
import { FlowError } from '../errors.js';
import { escapeRegExp, scalarText } from '../project/index.js';
import { MAX_DOCUMENT_DEPTH, measure, readRegularFile } from '../limits/index.js';
import { escapePointer, record } from './pointer.js';

export type Doc = Record<string, unknown>;

/** One documented operation: where it is in the document, and the patterns that match a request to it. */
export interface DescribedOperation {
  method: string;
  /** the path template as written: `/pets/{petId}` */
  template: string;
  /** JSON pointer of the operation object in the document */
  pointer: string;
  responses: Record<string, unknown>;
  /** full-path patterns, one per base path of its servers */
  patterns: RegExp[];
  /** more literal characters first: `/pets/mine` before `/pets/{id}` */
  specificity: number;
}

export interface Description {
  /** the file, absolute */
  file: string;
  version: '3.0' | '3.1';
  doc: Doc;
  /** per upper-case method, most specific first */
  operations: Map<string, DescribedOperation[]>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** One description file (the largest public ones, GitHub's and Stripe's, are 10-15 MB of JSON). */
const MAX_DESCRIPTION_BYTES = 64 * 1024 * 1024;

/** The library's file reader and JSON parser, bounded. YAML is js-yaml's, already held to the same depth. */
const BOUNDED = {
  resolve: {
    http: false as const,
    file: {
      async read(file: FileInfo): Promise<Buffer> {
        try {
          return await readRegularFile(fileSystemPath(file.url), { maxBytes: MAX_DESCRIPTION_BYTES, code: 'E_CONTRACT_LOAD' });
        } catch (err) {
          // the library passes its own errors on as they are, and words any other one vaguely
          throw new ResolverError(err, file.url);
        }
      },
    },
  },
  parse: {
    json: {
      parse(file: FileInfo): unknown {
        const text = Buffer.isBuffer(file.data) ? file.data.toString('utf8') : String(file.data);
        if (!text.trim()) return undefined;
        const value: unknown = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
        // the library walks what it parsed recursively: a 10k-deep file would overflow the stack
        if (measure(value, { maxDepth: MAX_DOCUMENT_DEPTH }).over) throw new Error(`nested deeper than ${MAX_DOCUMENT_DEPTH} levels`);
        return value;
      },
    },
  },
};

/** Reads and bundles the description; E_CONTRACT_LOAD for a file that is missing, unparsable or not OpenAPI 3. */
export async function readDescription(file: string): Promise<Description> {
  let doc: Doc;
  try {
    doc = await $RefParser.bundle<Doc>(file, BOUNDED);
  } catch (err) {
    // no cause: the parser's error adds only its own stack to what the message says
    // its first line: a YAML error goes on with an excerpt of the file, which may be megabytes on one line
    const why = (err as Error).message.split('\n')[0].slice(0, 300);
    throw new FlowError('E_CONTRACT_LOAD', `${file}: cannot read the OpenAPI description: ${why}`);
  }
  // Swagger 2.0, as the importer reads it: converted in memory; paths and methods keep their
  // names, so a violation is still told as the original file's `METHOD /path`
  if (doc.swagger === '2.0' && doc.openapi === undefined) doc = await fromSwagger2(file, doc);
  const version = typeof doc.openapi === 'string' ? doc.openapi : undefined;
  if (!version || !/^3\.[01]\./.test(version)) {
    // the key the file really has
    const key =
      doc.openapi !== undefined
        ? `openapi: ${JSON.stringify(doc.openapi)}`
        : doc.swagger !== undefined
          ? `swagger: ${JSON.stringify(doc.swagger)}`
          : 'no openapi or swagger key';
    throw new FlowError('E_CONTRACT_LOAD', `${file}: not an OpenAPI 3.0 or 3.1 description, nor Swagger 2.0 (${key})`);
  }
  return { file, version: version.startsWith('3.1') ? '3.1' : '3.0', doc, operations: indexOperations(doc) };
}

/** The library's file URL (`/a/b%20c.json`: encodeURI, then `?` and `#`; or `file:///…`) -> `/a/b c.json` */
function fileSystemPath(url: string): string {
  if (url.startsWith('file:')) return fileURLToPath(url);
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

async function fromSwagger2(file: string, doc: Doc): Promise<Doc> {
  const converter = (await import('swagger2openapi')).default;
  try {
    // patch: fix the small errors real files have, as the importer tolerates them; no resolve: nothing fetched
    return await converter.convertObj(doc, { patch: true, warnOnly: true, direct: true, resolve: false });
  } catch (err) {
    throw new FlowError('E_CONTRACT_LOAD', `${file}: cannot convert the Swagger 2.0 description: ${(err as Error).message}`);
  }
}

function indexOperations(doc: Doc): Map<string, DescribedOperation[]> {
  const out = new Map<string, DescribedOperation[]>();
  const paths = record(doc.paths);
  const rootBases = basePaths(doc.servers) ?? [''];
  for (const [template, item] of Object.entries(paths)) {
    const pathItem = record(item);
    const pathBases = basePaths(pathItem.servers) ?? rootBases;
    for (const method of METHODS) {
      const op = pathItem[method];
      if (!op || typeof op !== 'object') continue;
      const bases = basePaths(record(op).servers) ?? pathBases;
      const described: DescribedOperation = {
        method: method.toUpperCase(),
        template,
        pointer: `/paths/${escapePointer(template)}/${method}`,
        responses: record(record(op).responses),
        patterns: bases.map((base) => pathPattern(base + template)),
        specificity: template.replace(/\{[^}]*\}/g, '').length,
      };
      const list = out.get(described.method) ?? [];
      list.push(described);
      out.set(described.method, list);
    }
  }
  for (const list of out.values()) list.sort((a, b) => b.specificity - a.specificity);
  return out;
}

/** The path part of each server URL (`{var}` by its default), without a trailing slash; undefined when none are given. */
function basePaths(servers: unknown): string[] | undefined {
  if (!Array.isArray(servers) || servers.length === 0) return undefined;
  const out = new Set<string>();
  for (const s of servers) {
    const server = record(s);
    if (typeof server.url !== 'string') continue;
    const vars = record(server.variables);
    const url = server.url.replace(/\{([^}]*)\}/g, (_, name: string) => scalarText(record(vars[name]).default));
    let pathname: string;
    try {
      pathname = new URL(url, 'http://relative.invalid').pathname;
    } catch {
      continue;
    }
    out.add(pathname.replace(/\/+$/, ''));
  }
  return out.size ? [...out] : undefined;
}

/** `/api/pets/{petId}` -> /^\/api\/pets\/[^/]+\/?$/ */
function pathPattern(fullPath: string): RegExp {
  const source = fullPath
    .split(/(\{[^}]*\})/)
    .map((part) => (part.startsWith('{') && part.endsWith('}') ? '[^/]+' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source.replace(/\/+$/, '')}/?$`);
}

/** The operation a request is for; `pathKnown` when the path is documented under another method. */
export function matchOperation(desc: Description, method: string, pathname: string): { operation?: DescribedOperation; pathKnown: boolean } {
  const path = pathname || '/';
  for (const op of desc.operations.get(method.toUpperCase()) ?? []) {
    if (op.patterns.some((p) => p.test(path))) return { operation: op, pathKnown: true };
  }
  for (const [m, list] of desc.operations) {
    if (m !== method.toUpperCase() && list.some((op) => op.patterns.some((p) => p.test(path)))) return { pathKnown: true };
  }
  return { pathKnown: false };
}
