// A wide project: `resources` independent resources of `perResource` operations each (a create,
// then reads and updates of what it created), for the split and shard tests.
export function wideProjectYaml(resources: number, perResource: number, opts: { shared?: boolean } = {}): string {
  const lines = ['version: 1', 'name: wide', 'environment:', '  variables:', '    baseUrl: <SET_VIA_--var>', 'resources:'];
  if (opts.shared) {
    // every resource needs the one account: a single group, cut by resource
    lines.push('  account:', '    operations:', '      create:', '        method: POST', '        path: /things', '        expect_status: 201');
    lines.push('        extract:', '          id: $.data.id');
  }
  for (let r = 0; r < resources; r++) {
    const name = `r${String(r).padStart(3, '0')}`;
    lines.push(`  ${name}:`, '    operations:', '      create:', '        method: POST', '        path: /things', '        expect_status: 201');
    if (opts.shared) lines.push('        body:', '          account: "{{account.id}}"');
    lines.push('        extract:', '          id: $.data.id');
    for (let k = 1; k < perResource; k++) {
      lines.push(`      get${k}:`, `        path: /things/{{${name}.id}}`, '        expect_status: 200');
    }
  }
  return `${lines.join('\n')}\n`;
}
