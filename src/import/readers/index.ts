// One reader per input format, behind one signature (a dispatch table).
import { readCurl } from './curl.js';
import { readHar } from './har.js';
import { readMarkdown } from './markdown.js';
import { readOpenApi } from './openapi.js';
import { readPostman } from './postman.js';
import type { ReaderTable } from './types.js';

export const READERS: ReaderTable = {
  openapi: readOpenApi,
  postman: readPostman,
  har: readHar,
  curl: readCurl,
  markdown: readMarkdown,
};
