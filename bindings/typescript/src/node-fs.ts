// Durable file writes for the Node-only stores (the file store, the result
// inbox, the file audit log): what reaches disk before a write is
// acknowledged, so that a crash (SIGKILL, power loss) leaves the old content
// or the new, never a part (docs/guide/storage.md, "On disk").
import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Flushes a directory's entries (a created, renamed or removed name) to disk. */
export function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Creates `file` (it must not exist: `EEXIST` otherwise) holding `data`, and
 * flushes it.
 */
export function createFlushed(file: string, data: string | Uint8Array): void {
  const fd = fs.openSync(file, 'wx');
  try {
    // writeFileSync on a descriptor writes everything (writeSync may write part).
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `data` to a new, uniquely named temp file beside `file` and flushes
 * it; returns its path. The caller moves it into place (rename or link).
 */
export function writeTempBeside(file: string, data: string | Uint8Array): string {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  createFlushed(tmp, data);
  return tmp;
}
