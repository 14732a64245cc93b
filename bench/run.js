// `npm run bench [lint|runner|process|vitest|split|contract|import]...`: every benchmark, or the ones named. Figures go to
// stdout as Markdown tables (copy them into BENCHMARKS.md with the machine and date).
import { benchLint } from './lint.js';

const SECTIONS = {
  lint: benchLint,
  runner: async () => (await import('./runner.js')).benchRunner(),
  process: async () => (await import('./process.js')).benchProcess(),
  vitest: async () => (await import('./vitest.js')).benchVitest(),
  split: async () => (await import('./split.js')).benchSplit(),
  contract: async () => (await import('./contract.js')).benchContract(),
  import: async () => (await import('./import.js')).benchImport(),
};

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(SECTIONS);
for (const name of wanted) {
  if (!SECTIONS[name]) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(SECTIONS).join(', ')}`);
    process.exit(2);
  }
  try {
    const result = await SECTIONS[name]();
    console.log(`\n## ${result.title}\n\n${result.table}\n${result.notes ? `\n${result.notes}\n` : ''}`);
  } catch (err) {
    console.error(`bench ${name}: ${err.message}`);
    process.exitCode = 1;
  }
}
