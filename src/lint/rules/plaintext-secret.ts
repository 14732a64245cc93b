// W_PLAINTEXT_SECRET (docs/format.md#auth-secrets, #secret-tag): every password, token and key is a `!secret NAME` or a
// `{{secret.NAME}}` reference. The loaded value keeps the `!secret` tag as a SecretRef. The
// value found is never printed.
import type { RefSite } from '../../graph/index.js';
import { isCredentialName, type Project, SET_VIA_VAR } from '../../project/index.js';
import { lintableFiles } from '../files.js';
import type { Finding, Rule } from '../rule.js';
import { walkValue, pathOf } from '../walk.js';

/** Subtrees whose values are not credentials: paths, expressions, justifications. */
const SKIP_KEYS = new Set(['extract', '_provenance', 'assert', 'depends_on', 'poll_until', 'description']);

/**
 * The credential-looking key a reference's string sits under (nearest first), if any: a
 * reference that does not parse may be the credential itself, so its message names that key
 * instead of quoting the text (docs/lint.md). The owner's own path does not
 * count: an operation called `refresh_token` is a name, not a credential.
 */
export function secretKeyOver(site: RefSite, project: Project): string | undefined {
  const { kind, id } = site.owner;
  const owner = kind === 'operation' ? project.operations.get(id) : kind === 'actor' ? project.actors.get(id) : project.environments.get(id);
  const prefix = owner?.file === site.file ? owner.yamlPath : [];
  const below = prefix.every((k, i) => site.yamlPath[i] === k) ? site.yamlPath.slice(prefix.length) : site.yamlPath;
  for (let i = below.length - 1; i >= 0; i--) {
    const key = below[i];
    if (typeof key === 'string' && isCredentialName(key)) return key;
  }
  return undefined;
}

/** A literal that would be sent as is: not `!secret`, not a `{{ }}` reference, not the run-time placeholder. */
function isPlainLiteral(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v !== 'string') return false;
  const text = v.trim();
  return text !== '' && !text.includes('{{') && text !== SET_VIA_VAR;
}

/**
 * Every plain-text credential of the project. Exported so that `flow lint --fix` replaces
 * exactly what this rule reports.
 */
export function* plaintextSecrets(project: Project): Generator<Finding> {
  for (const file of lintableFiles(project)) {
    const findings: Finding[] = [];
    walkValue(
      file.value,
      (value, place) => {
        if (!place?.inMap || typeof place.key !== 'string' || !isCredentialName(place.key) || !isPlainLiteral(value)) return;
        findings.push({
          code: 'W_PLAINTEXT_SECRET',
          message: `"${place.key}" holds a plain-text credential: write it as !secret NAME or {{secret.NAME}}`,
          file: file.path,
          yamlPath: pathOf(place),
        });
      },
      SKIP_KEYS,
    );
    yield* findings;
  }
}

const plaintextSecret: Rule = {
  id: 'plaintext-secret',
  codes: ['W_PLAINTEXT_SECRET'],
  check: ({ project }) => plaintextSecrets(project),
};

export default plaintextSecret;
