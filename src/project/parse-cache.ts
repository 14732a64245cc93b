// The parse cache: each project file's parsed value, source positions and parse diagnostics,
// stored under a key made of the file's content and of the code that parsed it, the way
// ESLint's --cache and Babel's cache keep theirs. Parsing YAML is about half of what loading a
// large project costs; reading the stored JSON back costs a few percent of that.
//
// It is a cache, never a source of truth: an entry that cannot be read, does not parse, has
// another key or the wrong shape is ignored (and rewritten); a failed write is ignored. Entries
// are written to a temporary file and renamed into place, so a process (a CI shard, a Vitest
// worker) never reads another's half-written entry.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PosNode } from './positions.js';
import type { Diagnostic, Severity } from './types.js';

/** Bumped when the shape of an entry changes. */
const FORMAT = 1;

export interface CacheOptions {
  /** false: no cache (undefined: on unless FLOW_NO_CACHE=1). */
  enabled?: boolean;
  /** where entries live; default: see defaultCacheDir (FLOW_CACHE_DIR first) */
  dir?: string;
}

/** A parse as stored: diagnostics without their file (the same text may sit in two files). */
export interface CachedParse {
  /** the document as plain JS; absent when the parse failed */
  value?: unknown;
  positions?: PosNode;
  diagnostics: Array<Omit<Diagnostic, 'file'>>;
}

/**
 * `FLOW_CACHE_DIR`, else `node_modules/.cache/reqflow` in the nearest folder above the project
 * that has a node_modules (where ESLint, Babel and Vitest keep theirs), else the user's cache
 * folder (`$XDG_CACHE_HOME/reqflow`, `~/.cache/reqflow`).
 */
export function defaultCacheDir(projectDir: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.FLOW_CACHE_DIR) return path.resolve(env.FLOW_CACHE_DIR);
  for (let dir = projectDir; ; dir = path.dirname(dir)) {
    if (isDirectory(path.join(dir, 'node_modules'))) {
      return path.join(dir, 'node_modules', '.cache', 'reqflow');
    }
    if (path.dirname(dir) === dir) break;
  }
  return path.join(env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'reqflow');
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false; // unreadable: look further up
  }
}

let fingerprint: string | undefined;

/**
 * What an entry depends on besides the text: the entry format, reqflow's version and the source
 * of the modules that parse and index a file (a development build changes them without a new
 * version), and the yaml library's version.
 */
function codeFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = createHash('sha256').update(`format ${FORMAT}\n`);
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const file of ['yaml', 'yaml-errors', 'keys', 'positions', 'source', 'diagnostics', 'parse-cache']) {
    for (const ext of ['.js', '.ts']) {
      try {
        hash.update(readFileSync(path.join(here, file + ext)));
        break;
      } catch {
        // the other extension (built or source)
      }
    }
  }
  for (const pkg of [path.join(here, '..', '..', 'package.json'), yamlPackageJson()]) {
    try {
      hash.update((JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version ?? '');
    } catch {
      hash.update('?');
    }
  }
  fingerprint = hash.digest('hex').slice(0, 16);
  return fingerprint;
}

function yamlPackageJson(): string {
  try {
    return fileURLToPath(new URL('../package.json', import.meta.resolve('yaml')));
  } catch {
    return '';
  }
}

export class ParseCache {
  /** `code`: what entries depend on besides the text (codeFingerprint; a test gives another). */
  constructor(
    readonly dir: string,
    private readonly code = codeFingerprint(),
  ) {}

  /** The cache for a project, or undefined when it is turned off. */
  static open(projectDir: string, options: CacheOptions = {}, env: NodeJS.ProcessEnv = process.env): ParseCache | undefined {
    if (options.enabled === false || (options.enabled === undefined && isOn(env.FLOW_NO_CACHE))) return undefined;
    return new ParseCache(path.resolve(options.dir ?? defaultCacheDir(projectDir, env)));
  }

  keyOf(text: string): string {
    return createHash('sha256').update(this.code).update('\0').update(text).digest('hex');
  }

  private fileOf(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  read(key: string): CachedParse | undefined {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(this.fileOf(key), 'utf8'));
    } catch {
      return undefined; // missing, unreadable or corrupt: parse the file again
    }
    return checkEntry(raw, key);
  }

  write(key: string, entry: CachedParse): void {
    if (!isJsonSafe(entry.value)) return; // e.g. `.inf`: JSON would change it
    const target = this.fileOf(key);
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(temp, JSON.stringify({ format: FORMAT, key, ...entry }));
      renameSync(temp, target);
    } catch {
      // a read-only or full disk, a file where the folder should be: run without the cache
      try {
        rmSync(temp, { force: true });
      } catch {
        // nothing was written
      }
    }
  }
}

/** The entry when it is one of ours for this key, whole and well-formed; else undefined. */
function checkEntry(raw: unknown, key: string): CachedParse | undefined {
  if (!isObject(raw) || raw.format !== FORMAT || raw.key !== key) return undefined;
  const { value, positions, diagnostics } = raw;
  if (!Array.isArray(diagnostics) || !diagnostics.every(isStoredDiagnostic)) return undefined;
  if (positions !== undefined && !isPosNode(positions)) return undefined;
  return { value, positions: positions as PosNode | undefined, diagnostics: diagnostics as CachedParse['diagnostics'] };
}

const SEVERITIES: ReadonlySet<unknown> = new Set<Severity>(['error', 'warning']);

function isStoredDiagnostic(d: unknown): boolean {
  return (
    isObject(d) &&
    typeof d.code === 'string' &&
    SEVERITIES.has(d.severity) &&
    typeof d.message === 'string' &&
    Number.isInteger(d.line) &&
    Number.isInteger(d.col)
  );
}

function isPosNode(n: unknown): boolean {
  // Iterative: a stored index is as deep as its document.
  const stack: unknown[] = [n];
  while (stack.length) {
    const node = stack.pop();
    if (!Array.isArray(node) || node.length < 2 || node.length > 3 || !Number.isInteger(node[0]) || !Number.isInteger(node[1])) return false;
    if (node.length === 2) continue;
    const inner: unknown = node[2];
    if (Array.isArray(inner)) {
      for (const item of inner) if (item !== null) stack.push(item);
    } else if (isObject(inner)) {
      for (const entry of Object.values<unknown>(inner)) {
        if (!Array.isArray(entry) || entry.length !== 3 || !Number.isInteger(entry[0]) || !Number.isInteger(entry[1])) return false;
        if (entry[2] !== null) stack.push(entry[2]);
      }
    } else {
      return false;
    }
  }
  return true;
}

/** Whether JSON keeps `value` exactly: plain objects, arrays, strings, finite numbers, booleans, null. */
function isJsonSafe(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === undefined) continue; // a failed parse stores no value
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || Object.is(v, -0)) return false;
      continue;
    }
    if (Array.isArray(v)) {
      for (const item of v) {
        if (item === undefined) return false;
        stack.push(item);
      }
      continue;
    }
    if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      for (const item of Object.values(v)) {
        if (item === undefined) return false;
        stack.push(item);
      }
      continue;
    }
    return false;
  }
  return true;
}

/** An environment switch such as FLOW_NO_CACHE: set, and not empty, `0` or `false`. */
export function isOn(flag: string | undefined): boolean {
  return flag !== undefined && flag !== '' && flag !== '0' && flag.toLowerCase() !== 'false';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
