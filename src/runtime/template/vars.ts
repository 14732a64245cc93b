// Values for `<SET_VIA_--var>` (and any env variable): `--var name=value` on the command
// line, the plugin's `vars` option, or FLOW_VAR_<name> in the process environment.
// The runner merges them: `{ ...varsFromEnv(process.env), ...given }` (a given value wins).

const VAR_ENV_PREFIX = 'FLOW_VAR_';

/** Every FLOW_VAR_<name> of the environment, keyed by <name> (case kept: FLOW_VAR_baseUrl -> baseUrl). */
export function varsFromEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith(VAR_ENV_PREFIX) && key.length > VAR_ENV_PREFIX.length && value !== undefined) {
      vars[key.slice(VAR_ENV_PREFIX.length)] = value;
    }
  }
  return vars;
}

/** `name=value` (the value may contain `=`); undefined when there is no `=` or no name. */
export function parseVarAssignment(text: string): { name: string; value: string } | undefined {
  const eq = text.indexOf('=');
  if (eq <= 0) return undefined;
  return { name: text.slice(0, eq).trim(), value: text.slice(eq + 1) };
}
