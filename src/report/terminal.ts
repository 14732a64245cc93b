// Whether output redrawn in place (a progress line, a waiting line) suits a stream: a terminal,
// and no CI, whose log would keep every redraw as a line of its own. Read by the CLI and by the
// Vitest plugin's server start.

/** Whether to show it: the stream is a terminal and no CI says otherwise. */
export function wantsProgress(isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.toLowerCase();
  return isTTY && !(ci && ci !== 'false' && ci !== '0') && env.TERM !== 'dumb';
}
