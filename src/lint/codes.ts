// Every code `flow lint` can print: who reports it, its severity, cause and remedy. The CLI's
// --help lists them; docs/lint.md explains each (a test keeps the two in step).
import { AUTH_STRATEGIES, type Severity } from '../project/index.js';

export interface CodeInfo {
  severity: Severity;
  /** which stage finds it */
  from: 'loader' | 'lint' | 'graph';
  cause: string;
  remedy: string;
}

export const CODES: Record<string, CodeInfo> = {
  // loader (src/project)
  E_PROJECT_NOT_FOUND: {
    severity: 'error',
    from: 'loader',
    cause: 'the project directory does not exist or is not a directory',
    remedy: 'pass the directory that holds flow.yaml with --project',
  },
  E_NO_ROOT: { severity: 'error', from: 'loader', cause: 'the directory has no flow.yaml', remedy: 'create flow.yaml with at least `version: 1`' },
  E_ROOT_NOT_MAPPING: {
    severity: 'error',
    from: 'loader',
    cause: 'flow.yaml is empty or not a mapping',
    remedy: 'write flow.yaml as a mapping with `version:`',
  },
  E_NOT_MAPPING: { severity: 'error', from: 'loader', cause: 'an actor, resource or environment is not a mapping', remedy: 'write it as a mapping of keys' },
  E_FILE_NOT_FOUND: { severity: 'error', from: 'loader', cause: 'an imported file does not exist', remedy: 'correct the path in imports or add the file' },
  E_FILE_UNREADABLE: {
    severity: 'error',
    from: 'loader',
    cause: 'a file cannot be read (a directory, a symlink loop, a named pipe, socket or device, no permission)',
    remedy: 'make it a readable regular file',
  },
  E_FILE_TOO_LARGE: { severity: 'error', from: 'loader', cause: 'a file is larger than the 5 MB limit', remedy: 'split it; project files are a few KB' },
  E_FILE_BINARY: { severity: 'error', from: 'loader', cause: 'a file contains NUL bytes', remedy: 'import only YAML files' },
  E_FILE_OUTSIDE_PROJECT: {
    severity: 'error',
    from: 'loader',
    cause: 'an import is absolute or goes above the project directory with .., or a project file links outside it',
    remedy: 'keep every file inside the project directory',
  },
  E_YAML_PARSE: {
    severity: 'error',
    from: 'loader',
    cause: 'bad indentation or quoting, nesting too deep, or an alias bomb',
    remedy: 'fix the YAML at the line given',
  },
  E_SCHEMA_VERSION: { severity: 'error', from: 'loader', cause: '`version` is missing or outside 1 to 3', remedy: 'set `version: 1`' },
  E_DUPLICATE_ID: {
    severity: 'error',
    from: 'loader',
    cause: 'two files (or inline entries) define the same actor, resource or environment id; the later one is ignored',
    remedy: 'rename one (`name:` or the filename)',
  },
  W_FILE_DISCARDED: {
    severity: 'warning',
    from: 'loader',
    cause: 'an imported file is not directly under actors/, resources/ or environments/: it is not read',
    remedy: 'move it into one of those directories',
  },
  W_IMPORT_PATTERN: {
    severity: 'warning',
    from: 'loader',
    cause:
      'an import pattern uses `**` or `?`, a `*` not at the end, or is a glob over a directory other than actors/, resources/, environments/ that matches no file',
    remedy: 'use a trailing `*.yaml` / `*.yml` or a file path',
  },
  W_CACHE_UNSAFE: {
    severity: 'warning',
    from: 'loader',
    cause: 'the parse cache folder is not your own (another user owns it, or others can write it or a folder above it): the load went on without it',
    remedy: 'name a folder of your own with --cache-dir or FLOW_CACHE_DIR, or remove the folder so that it is made again (0700)',
  },
  W_EMPTY_FILE: { severity: 'warning', from: 'loader', cause: 'an imported file is empty', remedy: 'fill it or remove it from the project' },
  W_UNKNOWN_TAG: {
    severity: 'warning',
    from: 'loader',
    cause: 'a YAML tag other than `!secret`; the value is read as plain text',
    remedy: 'use `!secret NAME` or no tag',
  },
  E_KEY_NOT_STRING: {
    severity: 'error',
    from: 'loader',
    cause: 'a key is not text: a complex key (`? [a, b]`, a flow map or sequence as a key) or a null key',
    remedy: 'write the key as plain text',
  },
  E_TEMPLATE_UNQUOTED: {
    severity: 'error',
    from: 'loader',
    cause: 'an unquoted {{…}}: YAML reads it as a mapping, not as the template',
    remedy: 'quote it: name: "{{$.faker.word}}"',
  },
  W_YAML: { severity: 'warning', from: 'loader', cause: 'a YAML warning from the parser', remedy: 'follow the message' },
  // structural rules (src/lint/rules)
  E_SCHEMA: {
    severity: 'error',
    from: 'lint',
    cause: 'a value has the wrong type or form (the JSON Schemas in schemas/)',
    remedy: 'give the type the message names',
  },
  W_UNKNOWN_KEY: {
    severity: 'warning',
    from: 'lint',
    cause: 'a key the format does not list; it is silently ignored',
    remedy: 'remove it or correct its spelling',
  },
  W_UNKNOWN_STRATEGY: {
    severity: 'warning',
    from: 'lint',
    cause: '`auth.strategy` is missing or not a strategy of the format; it is read as `simple`',
    remedy: `write one of ${AUTH_STRATEGIES.join(', ')}`,
  },
  W_UNKNOWN_METHOD: {
    severity: 'warning',
    from: 'lint',
    cause: '`method` is not an HTTP method; it is sent as GET',
    remedy: 'write GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS or TRACE',
  },
  W_NOT_SEQUENCE: { severity: 'warning', from: 'lint', cause: '`depends_on` or `assert` is not a sequence; it is ignored', remedy: 'write it as a list' },
  W_WRITE_NOT_OWNED: {
    severity: 'warning',
    from: 'lint',
    cause: 'a PUT, PATCH, DELETE or POST action on an instance that a list or for_each feeds: a run sends it only for instances it created',
    remedy: 'add `acts_on: existing` if it is meant to change data that exists before the run',
  },
  W_EMPTY_KEY: { severity: 'warning', from: 'lint', cause: 'an empty `depends_on`, `assert`, `actor` or `expect_status`', remedy: 'omit the key' },
  E_AUTH_FILE_NOT_FOUND: {
    severity: 'error',
    from: 'lint',
    cause: 'an mtls `cert_path`, `key_path` or `ca_cert_path` names no file (relative to the project directory)',
    remedy: 'correct the path or add the file',
  },
  W_PLAINTEXT_SECRET: {
    severity: 'warning',
    from: 'lint',
    cause: 'a password, token or key written as plain text',
    remedy: 'use `!secret NAME` or `{{secret.NAME}}`',
  },
  W_BASEURL_PATH: {
    severity: 'warning',
    from: 'lint',
    cause: '`baseUrl` goes on past the host (a path such as /api/v1)',
    remedy: 'end baseUrl at the host; put the prefix in each operation path',
  },
  E_SECRET_NAME: {
    severity: 'error',
    from: 'lint',
    cause: 'a `!secret` tag with no name; a run that uses the value fails with E_SECRET_MISSING for secret ""',
    remedy: 'write the name after the tag: `!secret NAME`',
  },
  E_ASSERT_SYNTAX: {
    severity: 'error',
    from: 'lint',
    cause:
      'an `assert` or `poll_until` condition that does not parse (grammar of docs/format.md#assert-grammar, path roots of docs/format.md#extraction); the run fails with the same code',
    remedy: 'follow the message: it gives the column',
  },
  E_EXTRACT_FAILED: {
    severity: 'error',
    from: 'lint',
    cause:
      'an extraction that can never work: a path outside the roots of docs/format.md#extraction ($.data…, $.headers.X, $.cookies.x, $.status_code, $.body), an invalid regex or XPath; the run fails with the same code',
    remedy: 'start the path with $.data (`$.data.id`, not `data.id`), or fix the pattern',
  },
  W_INLINE_LOGIN: {
    severity: 'warning',
    from: 'lint',
    cause:
      "an operation's inline `auth` with strategy simple or chain: it logs in but adds no credential to the request (only an actor's inject.headers carry one)",
    remedy: 'give the operation an actor whose inject.headers carry the token',
  },
  W_NO_ENVIRONMENT: {
    severity: 'warning',
    from: 'lint',
    cause:
      '`default_environment` names an environment, and no environment is loaded at all: flow.yaml has no imports, or its patterns match no file (the message names them)',
    remedy: 'correct the import pattern or add the environment file; an empty project is otherwise allowed',
  },
  E_INTERNAL: { severity: 'error', from: 'lint', cause: 'a lint rule failed (a bug in reqflow)', remedy: 'report it with the project that triggers it' },
  // graph rules (src/lint/rules, on src/graph)
  E_REF_UNDEFINED: {
    severity: 'error',
    from: 'graph',
    cause:
      "the scope of a `{{X.y}}` reference, a `depends_on` target, an `actor`, an actor of a resource's `shared.with` or `default_environment` names nothing",
    remedy: 'add the producer or correct the name',
  },
  E_CYCLE: {
    severity: 'error',
    from: 'graph',
    cause: 'operations depend on each other in a circle; the message prints the path',
    remedy: 'remove the unneeded `depends_on` edge or reference',
  },
  E_TEMPLATE_SYNTAX: {
    severity: 'error',
    from: 'graph',
    cause: 'a `{{ }}` reference is malformed or names a builtin (or a `$.faker.*` name) that does not exist',
    remedy: 'use a form of docs/format.md#references',
  },
  W_ENV_NOT_DEFINED: {
    severity: 'warning',
    from: 'graph',
    cause: 'an `{{env.X}}` that no environment defines; `--var X=…` or FLOW_VAR_X may still give it at run time',
    remedy: 'give it with --var X=… or FLOW_VAR_X, or add it to an environment',
  },
  W_NAME_SHARED: {
    severity: 'warning',
    from: 'graph',
    cause: "an actor and a resource have the same name; `{{x.f}}` reads the actor's session first, the resource when the login does not provide f",
    remedy: 'rename one of them',
  },
  W_FIELD_NOT_EXTRACTED: {
    severity: 'warning',
    from: 'graph',
    cause: 'a `{{resource.field}}` reads a field no operation of that resource extracts',
    remedy: 'add the extraction or correct the field name',
  },
};
