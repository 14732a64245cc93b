// Request bodies: `body` (JSON) and `body_form` (urlencoded; multipart as soon as one value
// uploads a file with `@./<path>`). Uploaded files must lie inside the project directory.
import { openAsBlob } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import type { FormData } from 'undici';
import { FlowError } from '../errors.js';
import { isInside, realProjectDir } from '../project/index.js';
import { undici } from './undici.js';

export type BodyKind = 'json' | 'form';

export interface EncodedBody {
  body: string | FormData;
  /** the Content-Type to send; undefined for multipart (undici sets it, with the boundary) */
  contentType?: string;
}

export interface BodyParts {
  /** `body`, already rendered */
  body?: unknown;
  /** `body_form`, already rendered; used when there is no `body` */
  bodyForm?: Record<string, unknown>;
  /** the request's headers, already rendered */
  headers: Record<string, string>;
}

export interface BuiltBody {
  body?: string | FormData;
  /** the request headers with Content-Type settled */
  headers: Record<string, string>;
}

/** A form value that uploads a file: `@./x`, `@../x` (rejected if outside) or `@/abs`. */
const FILE_REF = /^@(?:\.{1,2}[/\\]|\/)/;

export function isFileRef(value: unknown): value is string {
  return typeof value === 'string' && FILE_REF.test(value);
}

/**
 * Encode a request body and settle its Content-Type: a user-set Content-Type is kept,
 * except for multipart, whose boundary only the encoder knows. With both `body` and
 * `body_form`, `body` wins (lint reports the conflict).
 */
export async function buildBody(parts: BodyParts, projectDir: string): Promise<BuiltBody> {
  const userType = findHeader(parts.headers, 'content-type');
  let encoded: EncodedBody;
  if (parts.body !== undefined) encoded = await encodeBody('json', parts.body, projectDir, userType?.value);
  else if (parts.bodyForm !== undefined) encoded = await encodeBody('form', parts.bodyForm, projectDir);
  else return { headers: parts.headers };
  const headers = { ...parts.headers };
  if (typeof encoded.body !== 'string') {
    if (userType) delete headers[userType.name];
  } else if (!userType && encoded.contentType) {
    headers['content-type'] = encoded.contentType;
  }
  return { body: encoded.body, headers };
}

/**
 * JSON: any value becomes JSON text, except that a string sent with a non-JSON
 * Content-Type (`text/plain`, `application/xml`…) goes as it is.
 * Form: urlencoded, or multipart when a value is a file reference.
 */
export async function encodeBody(kind: BodyKind, value: unknown, projectDir: string, contentType?: string): Promise<EncodedBody> {
  if (kind === 'json') {
    if (typeof value === 'string' && contentType && !isJsonType(contentType)) return { body: value, contentType };
    return { body: JSON.stringify(value ?? null), contentType: 'application/json' };
  }
  const fields = formFields(value);
  if (!fields.some(([, v]) => isFileRef(v))) {
    const params = new URLSearchParams();
    for (const [k, v] of fields) params.append(k, formText(v));
    return { body: params.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  const form = new (undici().FormData)();
  for (const [k, v] of fields) {
    if (isFileRef(v)) {
      const file = await projectFile(v.slice(1), projectDir);
      form.append(k, await openAsBlob(file, { type: mimeType(file) }), basename(file));
    } else {
      form.append(k, formText(v));
    }
  }
  return { body: form };
}

function formFields(value: unknown): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new FlowError('E_BODY_FORM', 'body_form must be a map of field names to values');
  }
  const out: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(value)) {
    if (Array.isArray(v)) for (const item of v) out.push([k, item]);
    else out.push([k, v]);
  }
  return out;
}

function formText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Resolve a file of the project; symbolic links are followed before the check. */
async function projectFile(relPath: string, projectDir: string): Promise<string> {
  const root = await realProjectDir(projectDir);
  const wanted = resolve(root, relPath);
  let real: string;
  try {
    real = await realpath(wanted);
  } catch {
    if (!isInside(root, wanted)) throw outside(relPath);
    throw new FlowError('E_FILE_NOT_FOUND', `file to upload not found: ${relPath}`, { details: { path: relPath } });
  }
  if (!isInside(root, real)) throw outside(relPath);
  const st = await stat(real);
  if (!st.isFile()) throw new FlowError('E_FILE_NOT_FOUND', `not a file: ${relPath}`, { details: { path: relPath } });
  return real;
}

function outside(relPath: string): FlowError {
  return new FlowError('E_FILE_OUTSIDE_PROJECT', `file to upload is outside the project directory: ${relPath}`, { details: { path: relPath } });
}

function isJsonType(contentType: string): boolean {
  const t = contentType.split(';')[0].trim().toLowerCase();
  return t === 'application/json' || t.endsWith('+json') || t.endsWith('/json');
}

function findHeader(headers: Record<string, string>, lower: string): { name: string; value: string } | undefined {
  for (const name in headers) if (name.toLowerCase() === lower) return { name, value: headers[name] };
  return undefined;
}

const MIME: Record<string, string> = {
  '.json': 'application/json',
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.xml': 'application/xml',
  '.html': 'text/html',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
};

function mimeType(file: string): string {
  return MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';
}
