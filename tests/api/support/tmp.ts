// Where test databases live. A PGlite data dir is ~40 MB; on Linux, /dev/shm (RAM) makes copying and
// deleting it several times faster than a disk-backed /tmp. Used only when it has room, because Docker
// gives containers a 64 MB /dev/shm by default. HERMES_TEST_TMPDIR overrides both.
import { mkdtempSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

function baseDir(): string {
  if (process.env.HERMES_TEST_TMPDIR) return process.env.HERMES_TEST_TMPDIR;
  try {
    const shm = statfsSync('/dev/shm');
    if (shm.bavail * shm.bsize > 2 * 1024 ** 3) return '/dev/shm';
  } catch {
    // Not Linux, or no /dev/shm.
  }
  return tmpdir();
}

export function makeTempDir(prefix: string): string {
  return mkdtempSync(path.join(baseDir(), prefix));
}
