import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as uploadRoute } from '@/app/api/upload/image/route';
import { GET as serveRoute } from '@/app/api/uploads/[key]/route';
import { getDb } from '@/db/client';
import { uploads, type TUserRow } from '@/db/schema';
import { seedUser } from '@/test/factories';
import { setLimiter } from '@/lib/operations/rate-limit';
import { createFsStore, setUploadStore } from '@/lib/uploads/storage';
import { call, pinnedLimiter, tokenFor } from '@/test/http';

// The filesystem store in a temporary directory: the real code path, nothing left in ./.data.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pm-uploads-'));
beforeAll(() => setUploadStore(createFsStore(dir)));
afterAll(() => {
  setUploadStore(undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => setLimiter(pinnedLimiter()));

let user: TUserRow;
const token = async () => tokenFor((user ??= await seedUser()));

type TFile = { bytes: Uint8Array; name: string; type?: string };

const upload = async (file: TFile | null, opts: { type?: string; token?: string | null } = {}) => {
  const form = new FormData();
  if (file) form.set('file', new File([file.bytes as BlobPart], file.name, { type: file.type ?? 'application/octet-stream' }));
  if (opts.type) form.set('type', opts.type);
  const headers = new Headers({ host: 'localhost:3000', 'x-client-socket-address': '203.0.113.7' });
  const bearer = opts.token === undefined ? await token() : opts.token;
  if (bearer) headers.set('authorization', `Bearer ${bearer}`);
  const req = new NextRequest('http://localhost:3000/api/upload/image', { method: 'POST', headers, body: form });
  const res = await uploadRoute(req, { params: Promise.resolve({}) });
  return { status: res.status, body: (await res.json()) as any };
};

const fetchUpload = async (url: string, headers: Record<string, string> = {}) => {
  const key = url.replace('/api/uploads/', '');
  const req = new NextRequest(`http://localhost:3000${url}`, { headers: { host: 'localhost:3000', ...headers } });
  const res = await serveRoute(req, { params: Promise.resolve({ key }) });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
};

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a7bd5' } });

describe('POST /api/upload/image', () => {
  it.each([
    ['png', 'image/png', () => solid(40, 30).png().toBuffer()],
    ['jpeg', 'image/jpeg', () => solid(40, 30).jpeg().toBuffer()],
    ['webp', 'image/webp', () => solid(40, 30).webp().toBuffer()],
    ['gif', 'image/gif', () => solid(40, 30).gif().toBuffer()],
  ] as const)('stores a %s, records it and serves it with its content type', async (format, contentType, make) => {
    const bytes = await make();
    const res = await upload({ bytes, name: 'whatever.bin' }, { type: 'post' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, contentType, width: 40, height: 30 });
    expect(res.body.url).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}\.(jpg|png|webp|gif)$/);
    expect(res.body.publicUrl).toBe(`http://localhost:3000${res.body.url}`);

    const [row] = await (await getDb()).select().from(uploads).where(eq(uploads.id, res.body.id));
    expect(row).toMatchObject({ ownerId: user.id, kind: 'post', contentType, width: 40, height: 30, bytes: res.body.size });

    const served = await fetchUpload(res.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(contentType);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Never sniffed, and no script can run in a served file.
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect(served.bytes.byteLength).toBe(res.body.size);
    const meta = await sharp(served.bytes).metadata();
    expect(meta).toMatchObject({ format, width: 40, height: 30 });

    const again = await fetchUpload(res.body.url, { 'if-none-match': served.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('recognises the format by content, whatever the name and declared type say', async () => {
    const bytes = await solid(8, 8).webp().toBuffer();
    const res = await upload({ bytes, name: 'photo.jpg', type: 'image/jpeg' }, { type: 'profile' });
    expect(res.status).toBe(201);
    expect(res.body.contentType).toBe('image/webp');
    expect(res.body.url).toMatch(/\.webp$/);
  });

  it('turns a JPEG upright by its EXIF orientation and strips EXIF with the GPS position', async () => {
    const bytes = await solid(64, 32)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'Acme', Model: 'Spycam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' } })
      .toBuffer();
    const before = await sharp(bytes).metadata();
    expect(before.exif?.toString('latin1')).toContain('Acme');
    expect(before.orientation).toBe(6);

    const res = await upload({ bytes, name: 'holiday.jpg', type: 'image/jpeg' }, { type: 'cover' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ contentType: 'image/jpeg', width: 32, height: 64 });
    const served = await fetchUpload(res.body.url);
    const after = await sharp(served.bytes).metadata();
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(Buffer.from(served.bytes).toString('latin1')).not.toContain('Acme');
    expect({ width: after.width, height: after.height }).toEqual({ width: 32, height: 64 });
  });

  it('keeps a GIF animation', async () => {
    const frame = (c: string) => sharp({ create: { width: 20, height: 30, channels: 4, background: c } }).png().toBuffer();
    const bytes = await sharp([await frame('#f00'), await frame('#0f0'), await frame('#00f')], { join: { animated: true } })
      .gif({ delay: 100, loop: 0 })
      .toBuffer();
    const res = await upload({ bytes, name: 'a.gif' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ contentType: 'image/gif', width: 20, height: 30 });
    const meta = await sharp((await fetchUpload(res.body.url)).bytes).metadata();
    expect(meta.pages).toBe(3);
  });

  it('refuses a text file named x.png', async () => {
    const res = await upload({ bytes: new TextEncoder().encode('hello, not an image'), name: 'x.png', type: 'image/png' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/JPEG, PNG, WebP and GIF/) });
  });

  it('refuses a file over 5 MB', async () => {
    const png = await solid(8, 8).png().toBuffer();
    const bytes = new Uint8Array(5 * 1024 * 1024 + 1);
    bytes.set(png);
    const res = await upload({ bytes, name: 'big.png' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/5 MB/) });
  });

  it('refuses more than 4096 pixels on a side', async () => {
    const res = await upload({ bytes: await solid(5000, 10).png().toBuffer(), name: 'wide.png' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/4096x4096/) });
    const tall = await upload({ bytes: await solid(10, 4097).png().toBuffer(), name: 'tall.png' });
    expect(tall.status).toBe(400);
  });

  it('refuses a missing, empty or corrupt file and an unknown type', async () => {
    const missing = await upload(null, { type: 'post' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/Missing file/);
    const empty = await upload({ bytes: new Uint8Array(0), name: 'e.png' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/empty/);
    const png = await solid(100, 100).png().toBuffer();
    const corrupt = await upload({ bytes: png.subarray(0, 60), name: 'c.png' });
    expect(corrupt.status).toBe(400);
    expect(corrupt.body.error.message).toMatch(/corrupt/);
    const badType = await upload({ bytes: png, name: 'p.png' }, { type: 'banner' });
    expect(badType.status).toBe(400);
    expect(badType.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('needs a token', async () => {
    const res = await upload({ bytes: await solid(8, 8).png().toBuffer(), name: 'p.png' }, { token: null });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
  });

  it('counts against the upload limit of 10 per minute', async () => {
    const bytes = await solid(4, 4).png().toBuffer();
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await upload({ bytes, name: 'p.png' })).status);
    expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('GET /api/uploads/{key}', () => {
  it('answers 404 for an unknown key and for anything that is not a flat key', async () => {
    for (const key of [`${crypto.randomUUID()}.png`, '../../package.json', '..', '.env', 'a/b.png']) {
      const res = await call(serveRoute, `/api/uploads/${encodeURIComponent(key)}`, { params: { key } });
      expect(res.status, key).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });
});
