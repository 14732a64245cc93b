// Bounds on untrusted input, shared by every stage that reads it: files (kind and size),
// parsed values (depth and count, measured without recursion), and regular expressions
// (linear-time matching).
export { readRegularFile, readRegularText } from './file.js';
export { fileKind } from './file-kind.js';
export { MAX_DOCUMENT_DEPTH, measure } from './depth.js';
export { linearRegExp } from './regexp.js';
