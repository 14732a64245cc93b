// The progress line while a managed server starts (flow run on a terminal, the plugin on a
// terminal): what was tried, what the last try got, for how long. Its own module, with no
// imports, so that `flow run` loads the server's code only when --server is given.

/** While it waits: what it tried, what the last try got, for how long it has waited. */
export interface WaitState {
  tried: string;
  got: string;
  ms: number;
}

/**
 * `waiting for the server, 3.2 s: connection refused at <url>`, cut to `columns` (a wrapped line
 * cannot be redrawn in place): the URL last, where a cut takes the least.
 */
export function waitingLine(state: WaitState, columns = 80): string {
  const line = `waiting for the server, ${(state.ms / 1000).toFixed(1)} s: ${state.got} at ${state.tried}`;
  const max = Math.max(20, columns - 1);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
