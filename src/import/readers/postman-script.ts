// What a Postman test script says about the response, read from its syntax tree (acorn):
// which variables it stores from which response field (`pm.environment.set('slug',
// article.slug)` with `var article = pm.response.json().article`), and which status it expects.
import { parse, type Node } from 'acorn';

export interface ScriptFacts {
  sets: Array<{ variable: string; field?: Array<string | number>; line: number; text: string }>;
  statuses: number[];
  /** the script could not be parsed */
  error?: string;
}

type AnyNode = Node & Record<string, unknown>;

const SETTERS = new Set([
  'pm.environment.set',
  'pm.globals.set',
  'pm.collectionVariables.set',
  'pm.variables.set',
  'postman.setEnvironmentVariable',
  'postman.setGlobalVariable',
]);

function isNode(v: unknown): v is AnyNode {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';
}

function* walk(node: unknown): Generator<AnyNode> {
  if (Array.isArray(node)) {
    for (const n of node) yield* walk(n);
    return;
  }
  if (!isNode(node)) return;
  yield node;
  for (const [k, v] of Object.entries(node)) if (k !== 'type' && k !== 'start' && k !== 'end' && typeof v === 'object') yield* walk(v);
}

/** `a.b.c` for a member chain of identifiers, else undefined. */
function chain(n: unknown): string | undefined {
  if (!isNode(n)) return undefined;
  if (n.type === 'Identifier') return String(n.name);
  if (n.type === 'MemberExpression' && !n.computed) {
    const left = chain(n.object);
    return left && isNode(n.property) ? `${left}.${String(n.property.name)}` : undefined;
  }
  return undefined;
}

export function analyzeScript(code: string): ScriptFacts {
  const facts: ScriptFacts = { sets: [], statuses: [] };
  let ast: Node;
  try {
    ast = parse(code, { ecmaVersion: 'latest', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true, locations: true });
  } catch (err) {
    facts.error = (err as Error).message;
    return facts;
  }
  // Variables bound to expressions, last binding wins (scripts are short and linear).
  const bindings = new Map<string, AnyNode>();
  for (const n of walk(ast)) {
    if (n.type === 'VariableDeclarator' && isNode(n.id) && n.id.type === 'Identifier' && isNode(n.init)) bindings.set(String(n.id.name), n.init);
    if (n.type === 'AssignmentExpression' && isNode(n.left) && n.left.type === 'Identifier' && isNode(n.right)) bindings.set(String(n.left.name), n.right);
  }
  const resolve = (e: unknown, depth = 0): Array<string | number> | undefined => {
    if (!isNode(e) || depth > 20) return undefined;
    switch (e.type) {
      case 'CallExpression': {
        const callee = chain(e.callee);
        if (callee === 'pm.response.json') return [];
        const args = e.arguments as unknown[];
        if (callee === 'JSON.parse' && isNode(args[0]) && chain(args[0]) === 'responseBody') return [];
        return undefined;
      }
      case 'Identifier':
        if (e.name === 'responseJSON' && !bindings.has('responseJSON')) return [];
        return bindings.has(String(e.name)) ? resolve(bindings.get(String(e.name)), depth + 1) : undefined;
      case 'MemberExpression': {
        const base = resolve(e.object, depth + 1);
        if (!base || !isNode(e.property)) return undefined;
        if (!e.computed) return [...base, String(e.property.name)];
        if (e.property.type === 'Literal' && (typeof e.property.value === 'number' || typeof e.property.value === 'string')) return [...base, e.property.value];
        return undefined;
      }
      case 'LogicalExpression':
        return resolve(e.left, depth + 1);
      case 'ChainExpression':
        return resolve(e.expression, depth + 1);
      default:
        return undefined;
    }
  };
  const lines = code.split('\n');
  for (const n of walk(ast)) {
    if (n.type === 'CallExpression') {
      const callee = chain(n.callee);
      const args = n.arguments as AnyNode[];
      const line = (n.loc as { start: { line: number } } | undefined)?.start.line ?? 1;
      if (callee && SETTERS.has(callee) && isNode(args[0]) && args[0].type === 'Literal' && typeof args[0].value === 'string') {
        facts.sets.push({ variable: args[0].value, field: args[1] ? resolve(args[1]) : undefined, line, text: (lines[line - 1] ?? '').trim() });
      }
      if (callee && /\.to\.(have|be)\.status$/.test(callee) && isNode(args[0]) && typeof args[0].value === 'number') facts.statuses.push(args[0].value);
    }
    if (n.type === 'BinaryExpression' && (n.operator === '===' || n.operator === '==')) {
      const sides = [n.left, n.right];
      const code = sides.find((s) => ['responseCode.code', 'pm.response.code'].includes(chain(s) ?? ''));
      const lit = sides.find((s) => isNode(s) && s.type === 'Literal' && typeof s.value === 'number') as AnyNode | undefined;
      if (code && lit) facts.statuses.push(Number(lit.value));
    }
  }
  facts.statuses = [...new Set(facts.statuses)];
  return facts;
}
