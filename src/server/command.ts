// A server command may carry credentials: `DB_PASSWORD=s3cret node api.js`, `node api.js
// --api-key sk-…`, `DATABASE_URL=postgres://app:pw@db/app`, `-H 'Authorization: Bearer …'`.
// Every message that names the command shows it with those values hidden, then cut (hidden
// first: a cut must never leave the start of a secret), and the run's redactor learns them,
// since the server may print them too.
import { isCredentialHeaderName, isCredentialName } from '../project/index.js';
import { CUT_MARK, type Redactor } from '../redact/index.js';

/** The command is shown to this many characters (after hiding). */
const SHOWN_CHARS = 200;

/** One shell word: quoted parts and unquoted characters up to a blank or an operator. */
const WORD = String.raw`(?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s;&|()<>'"])+`;
/** `NAME=value`, at the start of a command or after an operator (`export`, `env` included). */
const ASSIGNMENT = new RegExp(String.raw`(?<=^|[\s;&|(])([A-Za-z_][A-Za-z0-9_]*)=(${WORD})`, 'dg');
/** `--name=value` or `--name value` (also with one dash). */
const OPTION = new RegExp(String.raw`(?<=^|\s)--?([A-Za-z][\w.-]*)(?:=|\s+)(${WORD})`, 'dg');
/** the password of a URL's userinfo: `scheme://user:password@` */
const USERINFO = /[A-Za-z][\w+.-]*:\/\/[^\s/@:'"]*:([^\s/@'"]+)@/dg;
/** a header inside a word: `Authorization: Bearer …`, `X-Api-Key: …`, up to the quote or line end */
const HEADER = /(?<=['"\s]|^)([A-Za-z][\w-]*):[ \t]*([^'"\n]+)/dg;

interface Span {
  start: number;
  end: number;
  /** the value as the program gets it (quotes removed) */
  value: string;
}

/** Where the command holds credentials, by the names that carry them. */
function credentialSpans(command: string): Span[] {
  const spans: Span[] = [];
  const word = (m: RegExpExecArray, group: number) => {
    const text = m[group];
    const [start] = m.indices![group];
    const value = unquote(text);
    // a reference to a variable (`$DB_PASSWORD`) is not the secret itself
    if (value && !/^\$\{?\w+\}?$/.test(text)) spans.push({ start, end: start + text.length, value });
  };
  for (const m of command.matchAll(ASSIGNMENT)) if (isCredentialName(m[1])) word(m, 2);
  for (const m of command.matchAll(OPTION)) if (isCredentialName(m[1])) word(m, 2);
  for (const m of command.matchAll(HEADER)) if (isCredentialHeaderName(m[1])) word(m, 2);
  for (const m of command.matchAll(USERINFO)) word(m, 1);
  return spans;
}

/** The credential values the command holds, as the server gets them. */
export function commandSecrets(command: string): string[] {
  return [...new Set(credentialSpans(command).map((s) => s.value))];
}

/** The command as messages show it: its credentials and the redactor's secrets hidden, then cut. */
export function shownCommand(command: string, redactor: Redactor): string {
  const spans = credentialSpans(command).sort((a, b) => a.start - b.start);
  let masked = '';
  let at = 0;
  for (const s of spans) {
    if (s.end <= at) continue;
    masked += command.slice(at, Math.max(at, s.start)) + '***';
    at = s.end;
  }
  masked += command.slice(at);
  const { text, more } = redactor.excerpt(masked.replace(/\s*\n\s*/g, ' '), SHOWN_CHARS);
  return more ? `${text}${CUT_MARK}` : text;
}

function unquote(word: string): string {
  return word.replace(/'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)/g, (_m, single?: string, double?: string, escaped?: string) =>
    single !== undefined ? single : double !== undefined ? double.replace(/\\(.)/g, '$1') : (escaped ?? ''),
  );
}
