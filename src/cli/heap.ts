// V8's young generation starts at 1 MB per semi-space and doubles (up to 16 MB) each time
// more than its size has survived scavenges. Loading a project keeps most of what it parses,
// so loading 500 files grew it to the maximum, and a 1,000-request `flow run` peaked near
// 140 MB of which ~30 MB was young generation, empty again once loading ended. So `flow run`
// keeps it from growing while a project loads (a few more scavenges, paid at start-up) and
// lets it grow once the project is in memory, where most of what is allocated dies young
// and fewer scavenges are the faster choice (the run then peaked near 110 MB). `flow lint`
// keeps V8's default: it allocates and drops as it goes, and its goal is time.
//
// The flag is read at each growth step, so it works when set at run time (unlike
// --max-semi-space-size, read once when the heap is made). Set only on the V8 versions
// checked to have it (Node 20, 22 and 24): an unknown flag prints an error line.
import { setFlagsFromString } from 'node:v8';
import { hasCheckedV8Flags } from '../runtime/v8-tuning.js';

const HAS_FLAG = hasCheckedV8Flags();

/** Before a project loads. */
export function keepYoungGenerationSmall(): void {
  if (HAS_FLAG) setFlagsFromString('--semi-space-growth-factor=1');
}

/** Once the project is loaded. V8's default factor. */
export function letYoungGenerationGrow(): void {
  if (HAS_FLAG) setFlagsFromString('--semi-space-growth-factor=2');
}
