// JavaScript hooks (`pre_request`, `post_response`), run isolated in worker threads.
export { createHookRunner, DEFAULT_HOOK_TIMEOUT_MS } from './hook-runner.js';
export { isHookFile } from './locate.js';
export type { HookInput, HookKind, HookOutput, HookRunner } from './types.js';
