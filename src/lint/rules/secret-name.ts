// E_SECRET_NAME: a `!secret` tag with no name after it (`password: !secret`). The loader reads it
// as the secret "", which no variable or keychain entry can hold: every run that uses the value
// fails with E_SECRET_MISSING for secret "". The loaded value keeps the tag as a SecretRef.
import { isSecretRef } from '../../project/index.js';
import { lintableFiles } from '../files.js';
import type { Finding, Rule } from '../rule.js';
import { pathOf, walkValue } from '../walk.js';

const secretNameRule: Rule = {
  id: 'secret-name',
  codes: ['E_SECRET_NAME'],
  *check({ project }): Generator<Finding> {
    for (const file of lintableFiles(project)) {
      const findings: Finding[] = [];
      walkValue(file.value, (node, place) => {
        if (!isSecretRef(node) || node.name) return;
        findings.push({
          code: 'E_SECRET_NAME',
          message: '!secret has no name: write the name after the tag, as !secret NAME (set it with `flow secret set NAME` or FLOW_SECRET_NAME)',
          file: file.path,
          yamlPath: pathOf(place),
          // A tag with nothing after it has no position of its own: the parser places the
          // empty value after the tag (at the end of the line). The key is easier to find.
          atKey: place?.inMap,
        });
      });
      yield* findings;
    }
  },
};

export default secretNameRule;
