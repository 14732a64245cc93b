// A finding of the self-check, the grounding check or the leak check.
export interface CheckFinding {
  code: string;
  /** relative file path, or `plan` */
  file: string;
  /** where in the file, as `operations.create.path` */
  where: string;
  message: string;
}

/** Codes, one per item of docs/format.md#self-check plus docs/format.md#r3, docs/format.md#r4, docs/format.md#r5 and the two import-only checks. */
export const CHECK_CODES = {
  ungrounded: 'E_IMPORT_UNGROUNDED',
  leak: 'E_IMPORT_SECRET_LEAK',
  scope: 'E_CHECK_SCOPE',
  envUndefined: 'E_CHECK_ENV_UNDEFINED',
  operationRef: 'E_CHECK_OPERATION_REF',
  notExtracted: 'E_CHECK_NOT_EXTRACTED',
  plaintext: 'E_CHECK_PLAINTEXT_SECRET',
  baseUrl: 'E_CHECK_BASEURL_PATH',
  notSequence: 'E_CHECK_NOT_SEQUENCE',
  empty: 'E_CHECK_EMPTY_KEY',
  publicActor: 'E_CHECK_PUBLIC_ACTOR',
  cycle: 'E_CHECK_CYCLE',
  strategy: 'E_CHECK_STRATEGY',
  unknownKey: 'E_CHECK_UNKNOWN_KEY',
  provenance: 'E_CHECK_PROVENANCE',
  template: 'E_CHECK_TEMPLATE',
  plan: 'E_CHECK_PLAN',
  coverage: 'E_CHECK_COVERAGE',
} as const;

export function formatFinding(f: CheckFinding): string {
  return `${f.file}${f.where ? ` ${f.where}` : ''}: ${f.code} ${f.message}`;
}
