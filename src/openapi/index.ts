// An OpenAPI description, read once and looked up one way: the contract check, explore and
// calibrate's `--openapi` all find an operation, its request body and its responses here.
export { matchOperation, readDescription, type DescribedOperation, type Description, type Doc } from './description.js';
export { escapePointer, followRefs, pointerSegments, pointerValue, record } from './pointer.js';
export {
  bodyFieldSchema,
  describedOperation,
  isJsonMediaType,
  mediaKey,
  queryParameters,
  queryParametersAt,
  requestBodySchema,
  requestPathname,
  responseKey,
  responsePointer,
} from './operation.js';
