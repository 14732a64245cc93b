// Help texts come from the option tables (src/cli/options.ts): one row both parses an option
// and shows it, so every option a command's --help lists is one its parser accepts.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { optionHelp } from '../../src/cli/options.js';
import { recordedIO } from '../runtime/secrets/cli-io.js';

async function flow(argv: string[]) {
  const rec = recordedIO({ cwd: '/nonexistent-dir-for-options-test' });
  const code = await main(argv, rec.io);
  return { code, out: rec.out(), err: rec.err() };
}

describe('optionHelp', () => {
  it('aligns the texts after the longest option, continues lines under the text, and shows short names and placeholders', () => {
    const text = optionHelp({
      project: { type: 'string', short: 'p', arg: '<dir>', help: 'the project' },
      'dry-run': { type: 'boolean', help: ['print the plan', 'and send nothing'] },
    });
    expect(text).toBe(
      ['  -p, --project <dir>  the project', '      --dry-run        print the plan', '                       and send nothing', ''].join('\n'),
    );
  });
});

describe.each(['run', 'lint', 'graph', 'secret', 'import'])('flow %s --help', (command) => {
  it('lists only options the command accepts', async () => {
    const help = (await flow([command, '--help'])).out;
    const section = help.slice(help.indexOf('Options:'));
    const names = [...section.matchAll(/^ {2}(?:-\w, | {4})--([\w-]+)/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(2);
    for (const name of names) {
      const r = await flow([command, `--${name}`, '--help']);
      // a string option swallows --help as its value; what matters is that it is known
      expect(r.err, `--${name}`).not.toMatch(/Unknown option/);
    }
    expect((await flow([command, '--not-an-option'])).err).toMatch(/Unknown option '--not-an-option'/);
  });
});
