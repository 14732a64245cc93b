// The project stage: files -> model. Imports nothing from later stages.
export { loadProject, ROOT_FILE, type LoadOptions } from './load.js';
export { defaultCacheDir, isOn, type CacheOptions } from './parse-cache.js';
export { locate, locateIn, sourceOf } from './locate.js';
export { unmatchedImports } from './imports.js';
export { parseYaml, YAML_TAGS, MAX_ALIAS_COUNT } from './yaml.js';
export { parseDuration } from './duration.js';
export { editedText, editYamlFile } from './edit.js';
export { checkWritable, readForEdit, writeNewProject, writeOutputFile, writeProjectFile } from './write.js';
export { MAX_FILE_BYTES, readProjectFile } from './read.js';
export * from './types.js';
export { isRawMap } from './build/values.js';
export { isCredentialHeaderName, isCredentialName, namesIssuedCredential } from './credentials.js';
export { diag, severityOf } from './diagnostics.js';
export { lazy } from './lazy.js';
export { keptUnique, MAX_NAME, RUN_UNIQUE, singular, snake, unique, upperSnake, withUniquePart } from './names.js';
export { isInside, realProjectDir } from './project-path.js';
export { displayLoc, displayPath } from './display.js';
export { isPlainObject, scalarText } from './text.js';
