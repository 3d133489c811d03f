// Attachment bytes on disk. Rows in message_attachments keep only a `storage_key` (relative path such as
// 2026/11/<uuid>); the directory comes from the config so tests and benchmarks use a temp dir. Writes go to
// a temp file first and are renamed into place, so a crash never leaves a half-written file under a key.
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';

/** Keys are generated here or by the seed: lowercase segments, no dot-dot, so they never escape `dir`. */
const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9._-]*)*$/;

export class AttachmentStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  /** Absolute path of a key; throws on a key that is not ours (defence against a tampered row). */
  pathOf(key: string): string {
    if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`Clave de adjunto no válida: ${key}`);
    return path.join(this.dir, ...key.split('/'));
  }

  /** A fresh key under the current year and month, which keeps directories small. */
  newKey(now = new Date()): string {
    const month = String(now.getUTCMonth() + 1).padStart(2, '0');
    return `${now.getUTCFullYear()}/${month}/${randomUUID()}`;
  }

  /** Writes the bytes under `key` atomically (temp file + rename). */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomUUID()}.tmp`;
    try {
      await writeFile(temp, bytes, { flag: 'wx' });
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  /** Stores new bytes under a fresh key and returns it. */
  async save(bytes: Uint8Array, now = new Date()): Promise<string> {
    const key = this.newKey(now);
    await this.put(key, bytes);
    return key;
  }

  /** The file as a web stream plus its size, or null when it is gone. */
  async open(key: string): Promise<{ stream: ReadableStream<Uint8Array>; size: number } | null> {
    const file = this.pathOf(key);
    try {
      const info = await stat(file);
      return { stream: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, size: info.size };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** Removes files; missing ones are fine (a retried purge, or a row whose file was never written). */
  async remove(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => rm(this.pathOf(key), { force: true })));
  }
}
