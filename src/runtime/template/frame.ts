// The state of one render call, shared by the resolvers (which live in their own modules
// and reach the renderer through `engine`, so there is no import cycle).
import type { TemplatePart } from '../../graph/index.js';
import type { TemplateValue } from '../../project/index.js';
import type { RenderContext } from './context.js';

/** Synchronous: what a render reads is in memory (secrets are loaded before a run). */
export interface Engine {
  value(value: TemplateValue, frame: Frame): unknown;
  text(parts: TemplatePart[], frame: Frame): string;
}

export interface Frame {
  readonly ctx: RenderContext;
  readonly engine: Engine;
  /** the env variables being expanded, outermost first (cycle detection) */
  readonly envStack: readonly string[];
  /** set once a secret was read in this frame: what is built from it is secret too */
  tainted: boolean;
}

/** A frame for a nested render; the caller copies `tainted` back up. */
export function childFrame(frame: Frame, envName?: string): Frame {
  return { ctx: frame.ctx, engine: frame.engine, envStack: envName ? [...frame.envStack, envName] : frame.envStack, tainted: false };
}

/** Resolves one kind of reference to its value. `raw` is the reference as written, for messages. */
export type Resolver<E> = (expr: E, frame: Frame, raw: string) => unknown;
