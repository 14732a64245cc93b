// The formatters are pure functions of the diagnostics: golden outputs.
import { describe, expect, it } from 'vitest';
import { format, summary } from '../../src/lint/format/index.js';
import { escapeData, escapeProperty } from '../../src/lint/format/github.js';
import type { Diagnostic } from '../../src/project/index.js';

const cwd = '/work/p';
const DIAGS: Diagnostic[] = [
  { file: '/work/p/flow.yaml', line: 3, col: 22, severity: 'error', code: 'E_REF_UNDEFINED', message: 'default_environment "prod" names no environment' },
  { file: '/work/p/resources/orders.yaml', line: 7, col: 5, severity: 'warning', code: 'W_UNKNOWN_KEY', message: 'unknown key "url" is ignored' },
  { file: '/work/p/resources/orders.yaml', line: 9, col: 17, severity: 'error', code: 'E_CYCLE', message: 'cycle: a.x -> b.y -> a.x, 100%\nsecond line' },
];

describe('stylish', () => {
  it('prints one line per diagnostic, relative paths, then the summary', () => {
    expect(format('stylish', DIAGS, { cwd })).toBe(
      [
        'flow.yaml:3:22  error  E_REF_UNDEFINED  default_environment "prod" names no environment',
        'resources/orders.yaml:7:5  warning  W_UNKNOWN_KEY  unknown key "url" is ignored',
        'resources/orders.yaml:9:17  error  E_CYCLE  cycle: a.x -> b.y -> a.x, 100%\nsecond line',
        '✖ 3 problems (2 errors, 1 warning)',
        '',
      ].join('\n'),
    );
  });

  it('says so when there is nothing', () => {
    expect(format('stylish', [], { cwd })).toBe('✔ no problems\n');
  });

  it('counts in the singular and plural', () => {
    expect(summary([DIAGS[1]])).toBe('✖ 1 problem (0 errors, 1 warning)');
    expect(summary([DIAGS[0], DIAGS[2]])).toBe('✖ 2 problems (2 errors, 0 warnings)');
  });

  it('keeps paths outside the cwd relative with ..', () => {
    expect(format('stylish', [{ ...DIAGS[0], file: '/work/q/flow.yaml' }], { cwd }).split('\n')[0]).toMatch(/^\.\.\/q\/flow\.yaml:3:22 /);
  });
});

describe('json', () => {
  it('is an array of diagnostics with relative files and a fixed key order', () => {
    const out = format('json', DIAGS.slice(0, 2), { cwd });
    expect(out).toBe(`[
  {
    "file": "flow.yaml",
    "line": 3,
    "col": 22,
    "severity": "error",
    "code": "E_REF_UNDEFINED",
    "message": "default_environment \\"prod\\" names no environment"
  },
  {
    "file": "resources/orders.yaml",
    "line": 7,
    "col": 5,
    "severity": "warning",
    "code": "W_UNKNOWN_KEY",
    "message": "unknown key \\"url\\" is ignored"
  }
]
`);
    expect(JSON.parse(format('json', [], { cwd }))).toEqual([]);
  });
});

describe('github', () => {
  it('prints one workflow command per diagnostic, escaped', () => {
    expect(format('github', DIAGS, { cwd })).toBe(
      [
        '::error file=flow.yaml,line=3,col=22,title=E_REF_UNDEFINED::default_environment "prod" names no environment',
        '::warning file=resources/orders.yaml,line=7,col=5,title=W_UNKNOWN_KEY::unknown key "url" is ignored',
        '::error file=resources/orders.yaml,line=9,col=17,title=E_CYCLE::cycle: a.x -> b.y -> a.x, 100%25%0Asecond line',
        '',
      ].join('\n'),
    );
    expect(format('github', [], { cwd })).toBe('');
  });

  it('escapes data and properties as @actions/core does', () => {
    expect(escapeData('a%b\r\nc:d,e')).toBe('a%25b%0D%0Ac:d,e');
    expect(escapeProperty('dir,x/a:b.yaml%\n')).toBe('dir%2Cx/a%3Ab.yaml%25%0A');
  });
});
