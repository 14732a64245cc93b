// Formatters: pure functions of the diagnostics. The CLI picks one by name.
import type { Diagnostic } from '../../project/index.js';
import type { FollowOn } from '../follow-ons.js';
import { github } from './github.js';
import { json } from './json.js';
import { stylish } from './stylish.js';

export interface FormatOptions {
  /** file paths are printed relative to this directory */
  cwd: string;
  /** what lint did not show because it follows from a file that did not parse (stylish counts it) */
  followOns?: readonly FollowOn[];
}

export type Formatter = (diagnostics: readonly Diagnostic[], options: FormatOptions) => string;

export const FORMATS = { stylish, json, github } satisfies Record<string, Formatter>;
export type FormatName = keyof typeof FORMATS;

export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(FORMATS, name);
}

export function format(name: FormatName, diagnostics: readonly Diagnostic[], options: FormatOptions): string {
  return FORMATS[name](diagnostics, options);
}

export { followOnLine, summary } from './stylish.js';
