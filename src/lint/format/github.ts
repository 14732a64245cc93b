// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=CODE::message`, escaped
// as @actions/core does (data: % CR LF; properties: also `:` and `,`).
import { type Diagnostic, displayPath } from '../../project/index.js';
import type { FormatOptions } from './index.js';

export function github(diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  return diagnostics
    .map((d) => {
      const props = [`file=${escapeProperty(displayPath(d.file, options.cwd))}`, `line=${d.line}`, `col=${d.col}`, `title=${escapeProperty(d.code)}`];
      return `::${d.severity} ${props.join(',')}::${escapeData(d.message)}\n`;
    })
    .join('');
}

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
