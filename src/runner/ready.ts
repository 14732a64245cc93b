// What a run reads asynchronously, read once before its first request, so that rendering is synchronous: every secret the
// project names outside the environments not chosen (a `{{secret.X}}` site the graph found, or a `!secret X` value) and faker
// when a template uses it. A secret that cannot be read fails only the operations that render it, when they do (SecretStore.value throws the error).
import { isLiteral, isSecretRef } from '../project/index.js';
import { loadFaker } from '../runtime/index.js';
import type { RunContext } from './context.js';

export async function loadForRender(ctx: RunContext): Promise<void> {
  const secrets = new Set<string>();
  let faker = false;
  for (const site of ctx.graph.refs) {
    if (site.owner.kind === 'environment' && site.owner.id !== ctx.environment?.id) continue;
    if (site.expr?.kind === 'secret') secrets.add(site.expr.name);
    else if (site.expr?.kind === 'faker') faker = true;
    // a seeded `$.uuid` draws from the seeded faker
    else if (site.expr?.kind === 'uuid' && ctx.options.random) faker = true;
  }
  for (const value of writtenValues(ctx)) collectSecretRefs(value, secrets);
  await Promise.all([ctx.secrets.load(secrets), faker && loadFaker({ faker: ctx.options.random })]);
}

/** Where a `!secret` may be written: what the runner renders. */
function* writtenValues({ project, environment }: RunContext): Iterable<unknown> {
  yield environment?.variables;
  for (const actor of project.actors.values()) yield [actor.auth?.options, actor.inject.headers, actor.session?.refresh];
  for (const op of project.operations.values()) yield [op.headers, op.queryParams, op.body, op.bodyForm, op.auth?.options];
}

function collectSecretRefs(value: unknown, into: Set<string>, depth = 0): void {
  if (typeof value !== 'object' || value === null || depth > 64 || isLiteral(value)) return;
  if (isSecretRef(value)) into.add(value.name);
  else for (const v of Array.isArray(value) ? value : Object.values(value)) collectSecretRefs(v, into, depth + 1);
}
