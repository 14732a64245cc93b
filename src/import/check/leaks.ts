// The leak check: a real token, password, key or cookie seen in a HAR, a curl log or a
// collection must never appear in any output (files or plan).
import { escapeRegExp } from '../../project/index.js';
import { placeholders } from '../readers/curl.js';
import { CHECK_CODES, type CheckFinding } from './finding.js';
import type { ViewFile } from './view.js';
import { allStrings } from './walk.js';

const REF_RE = /\{\{[^{}]*\}\}/g;

/** Dictionary-like values (`password`, `admin`) are matched as whole values only, not inside prose. */
function isWordLike(c: string): boolean {
  return /^[A-Za-z]+$/.test(c) && c.length < 12;
}

/**
 * The input's own placeholder, not a credential: `{{client_secret}}`, `$TOKEN`, `<api_key>`,
 * `Bearer {{token}}`. The output names it on purpose (the plan says what it became).
 */
export function isPlaceholder(c: string): boolean {
  return /^(?:Bearer|Basic|Token|Digest)?$/i.test(
    placeholders(c)
      .replace(REF_RE, '')
      .replace(/[\s:;=&"',]/g, ' ')
      .trim(),
  );
}

export function checkLeaks(files: ViewFile[], plan: string | undefined, credentials: Iterable<string>): CheckFinding[] {
  const creds = [...new Set(credentials)].filter((c) => c.length >= 4 && !isPlaceholder(c));
  if (!creds.length) return [];
  const out: CheckFinding[] = [];
  for (const s of allStrings(files)) {
    const text = s.text.replace(REF_RE, '');
    for (const c of creds) {
      const hit = isWordLike(c) ? text === c || text.includes(`:${c}@`) || assigned(c).test(text) : text.includes(c);
      if (hit)
        out.push({
          code: CHECK_CODES.leak,
          file: s.file.path,
          where: s.where,
          message: `a credential seen in the input (${mask(c)}) is copied into the output`,
        });
    }
  }
  for (const f of files) {
    // Comments are output too: look at the whole text for the non-word credentials.
    for (const c of creds)
      if (!isWordLike(c) && f.text.includes(c) && !out.some((o) => o.file === f.path))
        out.push({ code: CHECK_CODES.leak, file: f.path, where: '', message: `a credential seen in the input (${mask(c)}) appears in the file` });
  }
  if (plan !== undefined) {
    for (const c of creds)
      if (!isWordLike(c) && plan.includes(c))
        out.push({ code: CHECK_CODES.leak, file: 'plan', where: '', message: `a credential seen in the input (${mask(c)}) appears in the plan` });
  }
  return out;
}

/** `"password": "jakejake"`, `password=jakejake`: a word-like credential written as a value. */
function assigned(c: string): RegExp {
  return new RegExp(`[:=]\\s*["']?${escapeRegExp(c)}["']?(?![\\w-])`);
}

function mask(c: string): string {
  return c.length <= 6 ? `${c.length} characters` : `${c.slice(0, 2)}…${c.length} characters`;
}
