// A finding of `flow explore` on the terminal: `FINDING <CODE> <operation>`, what the answer
// shows, then the shrunk sequence, each step's request and answer as the runner recorded
// them (redacted, bodies cut to an excerpt), and the replay file when one was written.
import path from 'node:path';
import type { Finding } from '../../report/index.js';

export function formatFinding(f: Finding, cwd: string): string {
  const out = [`FINDING ${f.code} ${f.operation}`, ...f.message.split('\n').map((l) => `  ${l}`)];
  out.push(`  sequence (${f.steps.length} step${f.steps.length === 1 ? '' : 's'}, seed ${f.seed}):`);
  f.steps.forEach((s, i) => {
    const req = s.request;
    out.push(`    ${i + 1}. ${s.operation}${s.role === 'invalid' ? ' (invalid body)' : ''}  ${req ? `${req.method} ${req.url}` : '(not sent)'}`);
    if (req?.body) out.push(`       ${oneLine(req.body)}`);
    out.push(`       -> ${s.response ? `${s.response.status}${s.response.body ? ` ${oneLine(s.response.body)}` : ''}` : 'no answer'}`);
  });
  if (f.file) out.push(`  replay: ${path.relative(cwd, f.file) || f.file}`);
  return `${out.join('\n')}\n`;
}

/** On one line, with invisible characters (a no-break space, a control) as \u escapes: what was sent is what is read. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/(?! )[\p{C}\p{Z}]/gu, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
