/**
 * Where uploaded bytes live: a tiny key/value interface, so an object store (S3, R2, Vercel Blob)
 * can replace the filesystem later without touching the upload service. Keys are flat names
 * such as `<uuid>.png`; anything else is refused, so a key can never leave the store's directory.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { env } from '@/lib/env';

export type TBlobStore = {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes, or null when there is nothing under the key. */
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
};

/** Flat names only: letters, digits, dot, dash and underscore, no leading dot, no "..". */
export const STORAGE_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)?$/;

export function isValidStorageKey(key: string) {
  return key.length <= 200 && STORAGE_KEY_PATTERN.test(key);
}

const assertKey = (key: string) => {
  if (!isValidStorageKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
};

/** Process memory (DATA_DIR=memory://, tests): gone when the process ends. */
export function createMemoryStore(): TBlobStore {
  const blobs = new Map<string, Uint8Array>();
  return {
    put: async (key, bytes) => {
      assertKey(key);
      blobs.set(key, new Uint8Array(bytes));
    },
    get: async (key) => (isValidStorageKey(key) ? (blobs.get(key) ?? null) : null),
    delete: async (key) => {
      blobs.delete(key);
    },
  };
}

/** One file per key in `dir`, written to a temporary name and renamed, so a reader never sees half a file. */
export function createFsStore(dir: string): TBlobStore {
  const root = path.resolve(dir);
  const fileOf = (key: string) => {
    assertKey(key);
    const file = path.resolve(root, key);
    if (path.dirname(file) !== root) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
    return file;
  };
  return {
    put: async (key, bytes) => {
      const file = fileOf(key);
      await fs.mkdir(root, { recursive: true });
      const tmp = path.join(root, `.tmp-${randomUUID()}`);
      try {
        await fs.writeFile(tmp, bytes);
        await fs.rename(tmp, file);
      } catch (e) {
        await fs.rm(tmp, { force: true });
        throw e;
      }
    },
    get: async (key) => {
      if (!isValidStorageKey(key)) return null;
      try {
        return new Uint8Array(await fs.readFile(fileOf(key)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
    },
    delete: async (key) => {
      await fs.rm(fileOf(key), { force: true });
    },
  };
}

let override: TBlobStore | undefined;
let cached: { dataDir: string; store: TBlobStore } | undefined;

/** The configured store: `DATA_DIR/uploads` on disk, or memory when DATA_DIR is `memory://`. */
export function uploadStore(): TBlobStore {
  if (override) return override;
  const dataDir = env().dataDir;
  if (cached?.dataDir !== dataDir) {
    const store = dataDir.startsWith('memory://') ? createMemoryStore() : createFsStore(path.join(dataDir, 'uploads'));
    cached = { dataDir, store };
  }
  return cached.store;
}

/** Tests (and a future object store) put their own store in place; undefined restores the default. */
export function setUploadStore(store: TBlobStore | undefined) {
  override = store;
}
