// `flow({ projects: { 'api/flow.yaml': { vars } } })`: options for one project of a Vitest
// run. With two projects on two servers, one `vars.baseUrl` for all would send the second
// project's requests to the first server. Loaded with the config: nothing heavy here.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { ProjectOptions, SuiteOptions } from './options.js';

const ROOT_FILE = 'flow.yaml';

/**
 * The keys made absolute flow.yaml paths (a directory means its flow.yaml). Throws for a key
 * that names no flow.yaml: a misspelt path would otherwise leave its project on the shared options.
 */
export function resolveProjects(projects: Record<string, ProjectOptions>, root: string): Record<string, ProjectOptions> {
  const out: Record<string, ProjectOptions> = {};
  for (const [key, options] of Object.entries(projects)) {
    let file = path.resolve(root, key);
    if (isDirectory(file)) file = path.join(file, ROOT_FILE);
    if (path.basename(file) !== ROOT_FILE || !isFile(file)) {
      throw new Error(
        `flow(): projects[${JSON.stringify(key)}] names no flow.yaml (looked for ${file}); give the path of a flow.yaml or its directory, relative to ${root}`,
      );
    }
    out[file] = options;
  }
  return out;
}

/** The options of the project whose flow.yaml is `root`: its own over the shared ones, vars merged by name. */
export function optionsFor(options: SuiteOptions, root: string): SuiteOptions {
  const { projects, ...shared } = options;
  const own = projects?.[path.resolve(root)];
  if (!own) return shared;
  const out: SuiteOptions = { ...shared };
  if (own.env !== undefined) out.env = own.env;
  if (own.vars !== undefined) out.vars = { ...shared.vars, ...own.vars };
  if (own.concurrency !== undefined) out.concurrency = own.concurrency;
  if (own.strict !== undefined) out.strict = own.strict;
  return out;
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
