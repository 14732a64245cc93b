// E_SECRET_NAME: a `!secret` tag with no name after it (`password: !secret`). The loader reads it
// as the secret "", which no variable or keychain entry can hold: every run that uses the value
// fails with E_SECRET_MISSING for secret "". The loaded value keeps the tag as a SecretRef.
import { isRawMap, isSecretRef, type YamlPath } from '../../project/index.js';
import { lintableFiles } from '../files.js';
import type { Finding, Rule } from '../rule.js';

const secretNameRule: Rule = {
  id: 'secret-name',
  codes: ['E_SECRET_NAME'],
  *check({ project }): Generator<Finding> {
    for (const file of lintableFiles(project)) {
      // Iterative: a deeply nested body must not exhaust the stack.
      const stack: Array<{ node: unknown; path: YamlPath; inMap?: boolean }> = [{ node: file.value, path: [] }];
      while (stack.length) {
        const { node, path, inMap } = stack.pop()!;
        if (isSecretRef(node)) {
          if (!node.name) {
            yield {
              code: 'E_SECRET_NAME',
              message: '!secret has no name: write the name after the tag, as !secret NAME (set it with `flow secret set NAME` or FLOW_SECRET_NAME)',
              file: file.path,
              yamlPath: path,
              // A tag with nothing after it has no position of its own: the parser places the
              // empty value after the tag (at the end of the line). The key is easier to find.
              atKey: inMap,
            };
          }
        } else if (Array.isArray(node)) {
          node.forEach((item, i) => stack.push({ node: item, path: [...path, i] }));
        } else if (isRawMap(node)) {
          for (const [key, value] of Object.entries(node)) stack.push({ node: value, path: [...path, key], inMap: true });
        }
      }
    }
  },
};

export default secretNameRule;
