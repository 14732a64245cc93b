// What `flow init` writes: a small project that lints clean, each file saying where its keys
// are explained (docs/format.md). Pure: the command decides where and whether to write.

/** The format's reference, as the comments name it: reqflow's package holds docs/. */
const DOCS = 'docs/format.md';

export interface InitFile {
  /** relative to the project directory, `/`-separated */
  path: string;
  text: string;
}

/** `name` is the project's (the directory's name); `vitestConfig` the config file to add, if any. */
export function initFiles(name: string, vitestConfig?: string): InitFile[] {
  const files: InitFile[] = [
    {
      path: 'flow.yaml',
      text: `# The root of a reqflow project. Every key of these files is explained in reqflow's
# ${DOCS} (installed: node_modules/reqflow/${DOCS}); this one in ${DOCS}#the-root-file.
# Check it with \`flow lint\`; run it with \`flow run --all\` or \`npx vitest\`.
version: 1
name: ${JSON.stringify(name)}
default_environment: local
# Each file under environments/, actors/ and resources/ is one of those (${DOCS}#layout).
imports:
  - environments/*.yaml
  - actors/*.yaml
  - resources/*.yaml
`,
    },
    {
      path: 'environments/local.yaml',
      text: `# An environment: the values a run uses (${DOCS}#environments).
name: local
variables:
  # Where the API answers, up to the host: \`flow run --var baseUrl=…\`, or FLOW_VAR_baseUrl.
  baseUrl: <SET_VIA_--var>
`,
    },
    {
      path: 'actors/user.yaml',
      text: `# An actor: who sends a request, and how it proves it (${DOCS}#actors,
# the strategies: ${DOCS}#authentication).
name: user
auth:
  strategy: bearer
  # From FLOW_SECRET_API_TOKEN, else the OS keychain (\`flow secret set API_TOKEN\`).
  token: "{{secret.API_TOKEN}}"
`,
    },
    {
      path: 'resources/items.yaml',
      text: `# A resource and its operations, each one HTTP request (${DOCS}#resources,
# ${DOCS}#operations). Another operation that reads {{item.id}} runs after list.
name: item
operations:
  list:
    method: GET
    path: /items
    actor: user
    expect_status: 200
    # $.data is the response body, here a list; the first item's id (${DOCS}#extraction)
    extract:
      id: $.data[0].id
`,
    },
  ];
  if (vitestConfig) {
    files.push({
      path: vitestConfig,
      text: `// Every flow.yaml under this directory becomes a Vitest suite: \`npx vitest\`.
// Options (env, vars, strict, projects, server, openapi): docs/vitest.md of reqflow.
import { defineConfig } from 'vitest/config';
import { flow } from 'reqflow/vitest';

export default defineConfig({
  plugins: [flow()],
});
`,
    });
  }
  return files;
}
