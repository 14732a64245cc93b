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
 * `waiting 3.2 s for http://127.0.0.1:4000/health: connection refused`, within `columns` (a
 * wrapped line cannot be redrawn in place): the URL is shortened first, so that what came
 * back and for how long stay in view.
 */
export function waitingLine(state: WaitState, columns = 80): string {
  const max = Math.max(20, columns - 1);
  const head = `waiting ${(state.ms / 1000).toFixed(1)} s for `;
  const tail = `: ${state.got}`;
  const room = Math.max(12, max - head.length - tail.length);
  const url = state.tried.length > room ? `${state.tried.slice(0, room - 1)}…` : state.tried;
  const line = head + url + tail;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
