// The graph stage: references and their scopes, producers, dependencies, cycles, order; and the
// syntax of the expressions a run reads responses with (assert, extraction), pure so lint checks it.
// Imports only from src/project (and src/errors.ts).
export { checkAssert, parseAssert, type AssertExpr, type CompareOp } from './assert-syntax.js';
export { buildGraph, dependsOnEntries, ProjectGraph, type Edge } from './build.js';
export { findCycles } from './cycles.js';
export { deleteLevels } from './delete-order.js';
export { checkExtract, checkPath, compileRegex, compileXPath, isFanOutPath, parsePath, type PathRef } from './extract-syntax.js';
export { FAKER_NAMES, type FakerName } from './faker.js';
export { prerequisites, scheduleOrder } from './order.js';
export { MAX_PARTS, MIN_PART_OPERATIONS, resourceOfId, shardParts, splitProject, touchedResources } from './split.js';
export { operationFormOf } from './scopes.js';
export { loginFields } from './session.js';
export { type RefSite } from './sites.js';
export { closestName, didYouMean } from './suggest.js';
export * from './template.js';
export { walkTemplates } from './walk.js';
export { atOwnCollection, formatExtension, isInstanceWrite, pathOnly, writeTarget, type WriteTarget } from './writes.js';
export { parseCached } from './parsed.js';
export { OAUTH2_SESSION_FIELDS } from './session.js';
