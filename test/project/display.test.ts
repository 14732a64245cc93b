// The one rule for showing a project file and a position to a person (src/project/display.ts).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayLoc, displayPath } from '../../src/project/index.js';

const cwd = path.resolve('/work/shop');

describe('displayPath', () => {
  it('a file below the working directory: relative, with /', () => {
    expect(displayPath(path.join(cwd, 'resources', 'orders.yaml'), cwd)).toBe('resources/orders.yaml');
  });

  it('a file beside or above it: relative, through ..', () => {
    expect(displayPath(path.resolve(cwd, '..', 'api', 'openapi.yaml'), cwd)).toBe('../api/openapi.yaml');
  });

  it('the working directory itself: .', () => {
    expect(displayPath(cwd, cwd)).toBe('.');
  });
});

describe('displayLoc', () => {
  const loc = { file: path.join(cwd, 'flow.yaml'), line: 12, col: 5 };

  it('file:line:col, or file:line', () => {
    expect(displayLoc(loc, cwd)).toBe('flow.yaml:12:5');
    expect(displayLoc(loc, cwd, false)).toBe('flow.yaml:12');
  });
});
