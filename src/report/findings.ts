// A finding of `flow explore` as text: `FINDING <CODE> <operation>`, what the answer shows,
// then the shrunk sequence, each step's request and answer as the runner recorded them
// (redacted, bodies cut to an excerpt), and the replay file when one was written. The
// terminal, the JUnit failure and the Markdown details all show this.
import { displayPath } from '../project/index.js';
import type { Finding } from './types.js';

export function findingText(f: Finding, cwd: string): string {
  const out = [`FINDING ${f.code} ${f.operation}`, ...f.message.split('\n').map((l) => `  ${l}`)];
  out.push(`  sequence (${f.steps.length} step${f.steps.length === 1 ? '' : 's'}, seed ${f.seed}):`);
  f.steps.forEach((s, i) => {
    const req = s.request;
    const as = s.actor === undefined ? '' : s.actor === null ? ' (no credentials)' : ` (as ${s.actor})`;
    out.push(`    ${i + 1}. ${s.operation}${s.role === 'invalid' ? ' (invalid body)' : ''}${as}  ${req ? `${req.method} ${req.url}` : '(not sent)'}`);
    if (req?.body) out.push(`       ${oneLine(req.body)}`);
    out.push(`       -> ${s.response ? `${s.response.status}${s.response.body ? ` ${oneLine(s.response.body)}` : ''}` : 'no answer'}`);
  });
  if (f.file) out.push(`  replay: ${displayPath(f.file, cwd)}`);
  return `${out.join('\n')}\n`;
}

/** On one line, with invisible characters (a no-break space, a control) as \u escapes: what was sent is what is read. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/(?! )[\p{C}\p{Z}]/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
