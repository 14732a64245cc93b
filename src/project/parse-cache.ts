// The parse cache: each project file's parsed value, source positions and parse diagnostics,
// stored under a key made of the file's content and of the code that parsed it, the way
// ESLint's --cache and Babel's cache keep theirs. Parsing YAML is about half of what loading a
// large project costs; reading the stored JSON back costs a few percent of that.
//
// It is a cache, never a source of truth: an entry that cannot be read, does not parse, has
// another key, source or checksum, or the wrong shape is ignored (and rewritten); a failed
// write is ignored. Entries are written to a temporary file and renamed into place, so a
// process (a CI shard, a Vitest worker) never reads another's half-written entry.
//
// Whoever can write the folder decides what a load sees (a planted entry can hold any value,
// an inline hook included, with a matching key and checksum: both are computed from public
// facts). So the real guard is the folder's owner: it is used only when it is the user's own
// and no one else can write it or replace it (the folders above it included); else the load
// warns W_CACHE_UNSAFE and goes on without it. Entries are regular files of the user's,
// opened without following a link and without blocking, and capped in size.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PosNode } from './positions.js';
import { isPlainObject } from './text.js';
import type { Diagnostic, Severity } from './types.js';

/** Bumped when the shape of an entry changes. */
const FORMAT = 2;

/** An entry larger than this is not read (a 5 MB project file's entry is well under it). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

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
 * `FLOW_CACHE_DIR`, else the user's own cache folder: `$XDG_CACHE_HOME/reqflow` (when absolute,
 * as the XDG spec asks), else `~/.cache/reqflow`. Not `node_modules/.cache` (Babel, Vitest) or
 * the project (ESLint, Vite): found by walking up from the project, that folder may be one
 * another user made in a shared parent (`/tmp`, a CI workspace).
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FLOW_CACHE_DIR) return path.resolve(env.FLOW_CACHE_DIR);
  const xdg = env.XDG_CACHE_HOME;
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(homedir(), '.cache'), 'reqflow');
}

/**
 * Why the folder `dir` must not be used, or undefined when it is the user's own: owned by the
 * user and writable by no one else, and every folder above it owned by the user or root and
 * writable by no one else unless sticky (`/tmp`), so that no one can swap it for theirs.
 */
function unsafeFolder(dir: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined; // Windows: no owner ids to compare
  let real: string;
  try {
    real = realpathSync(dir);
    const st = statSync(real);
    if (!st.isDirectory()) return `${dir} is not a folder`;
    if (st.uid !== uid) return `${dir} belongs to another user (uid ${st.uid}; you are ${uid})`;
    if (st.mode & 0o022) return `others can write to ${dir} (mode ${(st.mode & 0o777).toString(8)})`;
    for (let up = path.dirname(real); ; up = path.dirname(up)) {
      const above = statSync(up);
      if (above.uid !== uid && above.uid !== 0) return `${up}, above ${dir}, belongs to another user (uid ${above.uid})`;
      if (above.mode & 0o022 && !(above.mode & 0o1000)) return `others can write to ${up}, above ${dir} (mode ${(above.mode & 0o777).toString(8)})`;
      if (path.dirname(up) === up) break;
    }
  } catch (err) {
    return `${dir} cannot be checked (${(err as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  return undefined;
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

  /**
   * The cache, or undefined when it is turned off, its folder cannot be made, or it is not the
   * user's own (then `warn` says why: W_CACHE_UNSAFE). A missing folder is created, 0700.
   */
  static open(options: CacheOptions = {}, env: NodeJS.ProcessEnv = process.env, warn?: (message: string) => void): ParseCache | undefined {
    if (options.enabled === false || (options.enabled === undefined && isOn(env.FLOW_NO_CACHE))) return undefined;
    const dir = path.resolve(options.dir ?? defaultCacheDir(env));
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      return undefined; // a read-only disk, a file where the folder should be: no cache, nothing else
    }
    const unsafe = unsafeFolder(dir);
    if (unsafe) {
      warn?.(`the parse cache is not used: ${unsafe}; use a folder of your own (--cache-dir, FLOW_CACHE_DIR) or --no-cache`);
      return undefined;
    }
    return new ParseCache(dir);
  }

  keyOf(text: string): string {
    return createHash('sha256').update(this.code).update('\0').update(text).digest('hex');
  }

  private fileOf(key: string): string {
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The entry for `text` (whose key is `key`), when it is whole, ours and well-formed. */
  read(key: string, text: string): CachedParse | undefined {
    const raw = readEntryFile(this.fileOf(key));
    if (raw === undefined || !sealIntact(raw)) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return undefined; // corrupt: parse the file again
    }
    return checkEntry(parsed, key, sourceHash(text));
  }

  write(key: string, text: string, entry: CachedParse): void {
    if (!isJsonSafe(entry.value)) return; // e.g. `.inf`: JSON would change it
    const target = this.fileOf(key);
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      const body = JSON.stringify({ sum: UNSEALED, format: FORMAT, key, source: sourceHash(text), ...entry });
      writeFileSync(temp, seal(body), { mode: 0o600, flag: 'wx' });
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

/**
 * An entry file's text: a regular file of the user's that no one else can write, opened without
 * following a link and without blocking (a FIFO, a link to /dev/zero), at most MAX_ENTRY_BYTES.
 */
function readEntryFile(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    const uid = process.getuid?.();
    if (!st.isFile() || st.size > MAX_ENTRY_BYTES || (uid !== undefined && st.uid !== uid) || st.mode & 0o022) return undefined;
    return readFileSync(fd, 'utf8');
  } catch {
    return undefined; // missing or unreadable: parse the file again
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The checksum: an entry starts `{"sum":"<sha256 of the entry with the sum zeroed>"`. It finds
 * a torn or hand-damaged entry; it is no defence against someone who may write the folder
 * (the folder check is), since anyone can compute it.
 */
const UNSEALED = '0'.repeat(64);
const SUM_AT = '{"sum":"'.length;

/** `body` (an entry with any checksum) with its checksum computed. */
export function seal(body: string): string {
  const zeroed = body.slice(0, SUM_AT) + UNSEALED + body.slice(SUM_AT + 64);
  return body.slice(0, SUM_AT) + createHash('sha256').update(zeroed).digest('hex') + body.slice(SUM_AT + 64);
}

function sealIntact(raw: string): boolean {
  if (!raw.startsWith('{"sum":"') || raw[SUM_AT + 64] !== '"') return false;
  const sum = raw.slice(SUM_AT, SUM_AT + 64);
  return (
    createHash('sha256')
      .update(raw.slice(0, SUM_AT) + UNSEALED + raw.slice(SUM_AT + 64))
      .digest('hex') === sum
  );
}

/** The project file's text, hashed: an entry serves only the text it was made from. */
function sourceHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The entry when it is one of ours for this key and this text, whole and well-formed; else undefined. */
function checkEntry(raw: unknown, key: string, source: string): CachedParse | undefined {
  if (!isPlainObject(raw) || raw.format !== FORMAT || raw.key !== key || raw.source !== source) return undefined;
  const { value, positions, diagnostics } = raw;
  if (!Array.isArray(diagnostics) || !diagnostics.every(isStoredDiagnostic)) return undefined;
  if (positions !== undefined && !isPosNode(positions)) return undefined;
  return { value, positions: positions as PosNode | undefined, diagnostics: diagnostics as CachedParse['diagnostics'] };
}

const SEVERITIES: ReadonlySet<unknown> = new Set<Severity>(['error', 'warning']);

function isStoredDiagnostic(d: unknown): boolean {
  return (
    isPlainObject(d) &&
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
    } else if (isPlainObject(inner)) {
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
