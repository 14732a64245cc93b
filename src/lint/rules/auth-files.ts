// E_AUTH_FILE_NOT_FOUND: an mtls `cert_path`, `key_path` or `ca_cert_path` written as a plain
// path (no template) that names no file, relative to the project directory as the run reads
// it. Found before any request, at the key's file:line; a templated path is checked at login.
import { statSync } from 'node:fs';
import path from 'node:path';
import type { AuthConfig, Project } from '../../project/index.js';
import type { Finding, Rule } from '../rule.js';

const FILE_KEYS = ['cert_path', 'key_path', 'ca_cert_path'];

function* authConfigs(project: Project): Generator<AuthConfig> {
  for (const actor of project.actors.values()) if (actor.auth) yield actor.auth;
  for (const op of project.operations.values()) if (op.auth) yield op.auth;
}

const authFiles: Rule = {
  id: 'auth-files',
  codes: ['E_AUTH_FILE_NOT_FOUND'],
  *check({ project }): Generator<Finding> {
    for (const auth of authConfigs(project)) {
      if (auth.strategy !== 'mtls') continue;
      for (const key of FILE_KEYS) {
        const written = auth.options[key];
        if (typeof written !== 'string' || !written.trim() || written.includes('{{')) continue;
        const file = path.resolve(project.dir, written);
        let isFile = false;
        try {
          isFile = statSync(file).isFile();
        } catch {
          // missing or unreadable: reported below
        }
        if (!isFile) {
          yield {
            code: 'E_AUTH_FILE_NOT_FOUND',
            message: `${key} ${written} is not a file (relative to the project directory ${project.dir})`,
            file: auth.file,
            yamlPath: [...auth.yamlPath, key],
          };
        }
      }
    }
  },
};

export default authFiles;
