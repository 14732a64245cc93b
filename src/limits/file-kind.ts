// What a file that is not a regular one is, in the words every refusal uses ("… is a named
// pipe (FIFO), not a regular file"): reading a project file, writing one, reading a file an
// API description names.

/** The parts of fs.Stats this needs (a stat from lstat answers isSymbolicLink). */
export interface KindOfStat {
  isSymbolicLink(): boolean;
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

export function fileKind(stat: KindOfStat): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a regular file';
}
