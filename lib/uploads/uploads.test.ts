import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sniffImageFormat } from './formats';
import { createFsStore, createMemoryStore, isValidStorageKey } from './storage';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('sniffImageFormat', () => {
  it('recognises the four formats by their magic bytes', () => {
    expect(sniffImageFormat(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageFormat(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffImageFormat(bytes('GIF89a'))).toBe('gif');
    expect(sniffImageFormat(bytes('GIF87a'))).toBe('gif');
    expect(sniffImageFormat(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('webp');
  });

  it('refuses everything else', () => {
    expect(sniffImageFormat(bytes())).toBeNull();
    expect(sniffImageFormat(bytes([0xff, 0xd8]))).toBeNull();
    expect(sniffImageFormat(bytes('RIFF', [1, 2, 3, 4], 'WAVE'))).toBeNull();
    expect(sniffImageFormat(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageFormat(bytes('hello.png'))).toBeNull();
  });
});

describe('upload stores', () => {
  it('accept flat keys only', () => {
    expect(isValidStorageKey('0b6f7c1e-1111-4222-8333-944445555666.png')).toBe(true);
    for (const k of ['', '..', '.env', '../x.png', 'a/b.png', 'a\\b.png', 'x.png/', '%2e%2e']) expect(isValidStorageKey(k), k).toBe(false);
  });

  it.each([
    ['memory', () => createMemoryStore()],
    ['filesystem', () => createFsStore(fs.mkdtempSync(path.join(os.tmpdir(), 'pm-store-')))],
  ])('%s: put, get, delete, and nothing outside the store', async (_name, make) => {
    const store = make();
    await store.put('a.png', bytes('abc'));
    expect(await store.get('a.png')).toEqual(bytes('abc'));
    expect(await store.get('b.png')).toBeNull();
    expect(await store.get('../package.json')).toBeNull();
    await expect(store.put('../evil.png', bytes('x'))).rejects.toThrow(/Invalid storage key/);
    await store.delete('a.png');
    expect(await store.get('a.png')).toBeNull();
  });
});
