// Expansion of the root's `imports` (docs/format.md#imports-globs): only a trailing `*.yaml` / `*.yml` expands,
// in one directory, without recursion; `**` and `?` are literal and so match nothing.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { diagAt } from './diagnostics.js';
import { locateIn, sourceOf } from './locate.js';
import type { Diagnostic, FileKind, Loc, Project } from './types.js';

export interface ImportExpansion {
  files: string[]; // absolute, in pattern order, each once
  diagnostics: Diagnostic[];
  /** a file named by a plain path -> that import: its problems point at that line */
  importedAt: Map<string, Loc>;
}

const TRAILING_GLOB = /(^|\/)\*\.(yaml|yml)$/;
/**
 * The directories of the layout (docs/format.md#layout-kind), each with the kind of file it
 * holds; only these are read.
 */
export const LAYOUT_DIRS: Readonly<Record<string, FileKind>> = { actors: 'actor', resources: 'resource', environments: 'environment' };

function normalize(pattern: string): string {
  return pattern.replace(/\\/g, '/').replace(/^\.\//, '');
}

export async function expandImports(projectDir: string, patterns: Array<{ pattern: string; loc: Loc }>): Promise<ImportExpansion> {
  const files: string[] = [];
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const importedAt = new Map<string, Loc>();
  for (const { pattern, loc } of patterns) {
    const warn = (code: string, message: string) => diagnostics.push(diagAt(code, message, loc));
    const normalized = normalize(pattern);
    if (path.isAbsolute(normalized) || normalized.split('/').includes('..')) {
      warn('E_FILE_OUTSIDE_PROJECT', `import "${pattern}" points outside the project directory`);
      continue;
    }
    let matched: string[];
    const glob = TRAILING_GLOB.exec(normalized);
    if (glob) {
      const dir = path.join(projectDir, normalized.slice(0, normalized.length - glob[0].length + glob[1].length));
      const ext = `.${glob[2]}`;
      matched = (await listFiles(dir))
        .filter((n) => n.endsWith(ext) && n !== ext)
        .sort()
        .map((n) => path.join(dir, n));
      // A misspelt directory (`resource/*.yaml`) would otherwise leave the project silently
      // empty. The three directories of the layout may well be empty or absent: no warning.
      const rel = normalized.slice(0, normalized.length - glob[0].length);
      if (matched.length === 0 && !Object.hasOwn(LAYOUT_DIRS, rel) && !/\*\*|\?/.test(normalized))
        warn('W_IMPORT_PATTERN', `import "${pattern}" matches no file`);
    } else {
      matched = [path.join(projectDir, normalized)];
      importedAt.set(matched[0], loc);
    }
    if (/\*\*|\?/.test(normalized)) {
      warn('W_IMPORT_PATTERN', `import "${pattern}": "**" and "?" are read literally and match nothing; only a trailing *.yaml or *.yml expands`);
      continue;
    }
    if (!glob && normalized.includes('*')) {
      warn('W_IMPORT_PATTERN', `import "${pattern}": only a trailing *.yaml or *.yml expands; this pattern is read literally`);
    }
    for (const f of matched) {
      if (seen.has(f)) continue;
      seen.add(f);
      files.push(f);
    }
  }
  return { files, diagnostics, importedAt };
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    // Symbolic links count; a directory named x.yaml does not (the layout is flat). A pipe,
    // socket or device named x.yaml is listed so that reading it refuses it with a code.
    return entries.filter((e) => !e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * The import patterns of a loaded project that brought in no file, with their positions in
 * flow.yaml: what to point at when an operation or environment the user expects is not there.
 * Read from the loaded files, not the disk again.
 */
export function unmatchedImports(project: Project): Array<{ pattern: string; loc: Loc }> {
  const root = sourceOf(project, project.rootFile);
  const imports = (root?.value as { imports?: unknown } | null | undefined)?.imports;
  if (!root || !Array.isArray(imports)) return [];
  const dirs = new Set(project.files.map((f) => `${path.dirname(f.path)}\0${path.extname(f.path)}`));
  const out: Array<{ pattern: string; loc: Loc }> = [];
  imports.forEach((pattern: unknown, i) => {
    if (typeof pattern !== 'string') return;
    const normalized = normalize(pattern);
    const glob = TRAILING_GLOB.exec(normalized);
    const literal = /\*\*|\?/.test(normalized);
    if (!literal && !glob) return; // a file path: E_FILE_NOT_FOUND when it is missing
    const dir = glob && path.join(project.dir, normalized.slice(0, normalized.length - glob[0].length + glob[1].length));
    if (!literal && dir && dirs.has(`${path.resolve(dir)}\0.${glob[2]}`)) return;
    out.push({ pattern, loc: locateIn(root, ['imports', i]) });
  });
  return out;
}
