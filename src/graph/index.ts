// The graph stage: references and their scopes, producers, dependencies, cycles, order; and the
// syntax of the expressions a run reads responses with (assert, extraction), pure so lint checks it.
// Imports only from src/project (and src/errors.ts).
export { checkAssert, COMPARE_OPS, parseAssert, type AssertExpr, type AssertLiteral, type AssertOp, type CompareOp } from './assert-syntax.js';
export { buildGraph, dependsOnEntries, ProjectGraph, type Edge, type EdgeKind, type SelfProducedRef } from './build.js';
export { findCycles } from './cycles.js';
export {
  checkExtract,
  checkPath,
  compileRegex,
  compileXPath,
  isFanOutPath,
  parsePath,
  PATH_ROOTS,
  type PathRef,
  type XPathExpression,
} from './extract-syntax.js';
export { FAKER_NAMES, fakerKey, fakerName, type FakerName } from './faker.js';
export { prerequisites, scheduleOrder } from './order.js';
export { MAX_PARTS, MIN_PART_OPERATIONS, resourceOfId, shardParts, splitProject, touchedResources, type SplitPart } from './split.js';
export { classify, operationFormOf, resolveScope, RESOLUTION_ORDER, type RefClass, type ResolutionStep, type ScopeNames } from './scopes.js';
export { loginFields } from './session.js';
export { collectSites, type OwnerKind, type RefOwner, type RefSection, type RefSite } from './sites.js';
export { closestName, didYouMean, MAX_SUGGESTION_DISTANCE } from './suggest.js';
export * from './template.js';
export { visitStrings, walkTemplates, type TemplateString } from './walk.js';
export { parseCached } from './parsed.js';
export { OAUTH2_SESSION_FIELDS } from './session.js';
