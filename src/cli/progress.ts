// The live progress line of `flow run` on a terminal: done/total, the operations running now,
// the time so far, redrawn in place and cleared when the run ends (the normal output then
// stands alone). A widget with state and a timer: the CLI's, not the reports' (which are pure
// functions of a RunReport). Whether a stream wants it at all: wantsProgress (src/report).
import type { RunEvent } from '../runner/index.js';

export interface ProgressState {
  done: number;
  total: number;
  /** operations started and not ended yet, in start order */
  running: string[];
  elapsedMs: number;
}

/** The line itself, cut to `columns` so that it never wraps (a wrapped line cannot be redrawn in place). */
export function progressLine(s: ProgressState, columns = 80): string {
  const running = s.running.length ? `  running: ${s.running.join(', ')}` : '';
  const line = `flow run  ${s.done}/${s.total} done${running}  ${(s.elapsedMs / 1000).toFixed(1)} s`;
  const max = Math.max(20, columns - 1);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const CLEAR = '\r\u001b[K';

export interface Progress {
  onEvent(event: RunEvent): void;
  /** write other output without tearing the line: cleared first, drawn again after */
  around(write: (text: string) => void): (text: string) => void;
  /** clear the line for good */
  stop(): void;
}

export function createProgress(options: {
  write: (text: string) => void;
  total: number;
  columns?: () => number | undefined;
  now?: () => number;
  intervalMs?: number;
}): Progress {
  const { write, total } = options;
  const now = options.now ?? Date.now;
  const started = now();
  const running: string[] = [];
  const ended = new Set<string>();
  let shown = false;
  let stopped = false;
  let lastDraw = 0;
  const draw = () => {
    if (stopped) return;
    lastDraw = now();
    write(`${CLEAR}${progressLine({ done: Math.min(ended.size, total), total, running, elapsedMs: lastDraw - started }, options.columns?.() || 80)}`);
    shown = true;
  };
  const clear = () => {
    if (shown) write(CLEAR);
    shown = false;
  };
  // The elapsed time moves on between events too; unref'd, so it never keeps the process alive.
  const timer = setInterval(draw, options.intervalMs ?? 250);
  timer.unref();
  return {
    onEvent(event) {
      if (event.type === 'operation:start') running.push(event.operation);
      else if (event.type === 'operation:end') {
        const i = running.indexOf(event.result.operation);
        if (i >= 0) running.splice(i, 1);
        ended.add(event.result.operation);
      } else return;
      // The first draw at once; then at most every 100 ms (a thousand fast operations are not a thousand redraws).
      if (!shown || now() - lastDraw >= 100) draw();
    },
    around(inner) {
      return (text) => {
        const was = shown;
        clear();
        inner(text);
        if (was) draw();
      };
    },
    stop() {
      clearInterval(timer);
      clear();
      stopped = true;
    },
  };
}
