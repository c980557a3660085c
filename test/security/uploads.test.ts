/**
 * Upload polyglots (issue 29, item 12: the attacks that held, kept held), against a production
 * server on each database. An upload is recognised by its bytes and re-encoded (lib/uploads), so:
 * an SVG carrying script and an HTML page renamed .png are refused and nothing is stored; a real
 * PNG with an HTML page appended is stored re-encoded, without the page. Whatever is served from
 * /api/uploads is an image type, never sniffed (nosniff), under a policy that runs no script.
 * "Nothing stored" is read from the server's DATA_DIR/uploads, where the files live on both databases.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { callRaw, expectOk, expectRefused, newPlayer, pngBytes, targets, uploadFile, type TPlayer, type TTarget } from './harness';

const SVG = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>fetch('/api/users/me')</script><rect width="10" height="10"/></svg>`;
const HTML = `<!doctype html><html><body><script>fetch('/api/auth/onboard?username=owned&displayName=Owned')</script></body></html>`;

const storedFiles = (t: TTarget) => {
  const dir = path.join(t.dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith('.')).length : 0;
};

/** A served file's policy runs no script: `sandbox` (without allow-scripts) or a default-src/script-src of 'none'. */
const runsNoScript = (csp: string) =>
  (/(^|;)\s*sandbox(\s|;|$)/.test(csp) && !/allow-scripts/.test(csp)) || /(^|;)\s*(script-src|default-src)\s+'none'/.test(csp);

describe.each(targets())('upload polyglots ($name)', (t) => {
  let p: TPlayer;

  beforeAll(async () => {
    p = await newPlayer(t, 'uploader');
  });

  it('refuses an SVG with script and an HTML page renamed .png; nothing is stored', async () => {
    const before = storedFiles(t);
    const svg = new TextEncoder().encode(SVG);
    const html = new TextEncoder().encode(HTML);
    for (const [bytes, name, type] of [
      [svg, 'logo.svg', 'image/svg+xml'],
      [svg, 'logo.png', 'image/png'],
      [html, 'photo.png', 'image/png'],
      [html, 'page.html', 'text/html'],
    ] as const) {
      expectRefused(await uploadFile(t, p.token, bytes, name, type), 400);
    }
    expect(storedFiles(t)).toBe(before);
  });

  it('stores a PNG with an HTML page appended re-encoded (the page is gone), served as an image with nosniff and a policy that runs no script', async () => {
    const png = await pngBytes('#cc3300');
    const polyglot = new Uint8Array([...png, ...new TextEncoder().encode(HTML)]);
    const before = storedFiles(t);
    const res = await uploadFile(t, p.token, polyglot, 'polyglot.png', 'image/png');
    if (res.status !== 201) {
      // Refusing it outright is as good: then nothing may be stored.
      expectRefused(res, 400);
      expect(storedFiles(t)).toBe(before);
      return;
    }
    const up = expectOk(res, 201);
    expect(storedFiles(t)).toBe(before + 1);
    const served = await fetch(`${t.base}${up.url}`, { signal: AbortSignal.timeout(30_000) });
    expect(served.status).toBe(200);
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.includes(Buffer.from('<script')), 'the appended page is not served').toBe(false);
    expect(bytes.includes(Buffer.from('<html')), 'the appended page is not served').toBe(false);
    expect(served.headers.get('content-type')).toMatch(/^image\/(png|jpeg|webp|gif)$/);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = served.headers.get('content-security-policy') ?? '';
    expect(runsNoScript(csp), csp).toBe(true);
  });

  it('serves a stored image by key only: a path out of the uploads is not found (JSON), and nothing else is served as a document', async () => {
    for (const key of ['..%2F..%2Fpackage.json', '%2e%2e', '.env', 'x.html']) {
      const res = await callRaw(t, `/api/uploads/${key}`, { method: 'GET' });
      expect(res.status, `${key}: ${res.status}`).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
    }
  });
});
