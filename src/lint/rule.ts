// A lint rule returns findings with a path into a file; the lint runner adds the position
// (from the project's kept YAML documents) and the severity, as Spectral's rules do.
import type { Project, Severity, YamlPath } from '../project/index.js';
import type { ProjectGraph } from '../graph/index.js';

export interface Finding {
  code: string;
  message: string;
  /** absolute file path */
  file: string;
  /** where in that file; the runner turns it into line:col */
  yamlPath: YamlPath;
  /** `true` to point at the key rather than at the value */
  atKey?: boolean;
  /** overrides the default severity of the code */
  severity?: Severity;
  /**
   * The name the finding says is undefined. When a file that did not parse may define it, the
   * finding only follows from that file: lint counts it under the file instead of showing it.
   */
  missing?: MissingName;
}

/** `scope`: an actor or a resource; `variable`: an `env.X`. */
export interface MissingName {
  kind: 'actor' | 'resource' | 'scope' | 'environment' | 'variable';
  name: string;
}

export interface LintContext {
  project: Project;
  /** built once, on first use */
  readonly graph: ProjectGraph;
}

export interface Rule {
  /** short name, e.g. `references` */
  id: string;
  /** the codes it may report */
  codes: string[];
  check(ctx: LintContext): Iterable<Finding>;
}
