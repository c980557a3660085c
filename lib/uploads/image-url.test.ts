import { describe, expect, it } from 'vitest';
import { imageUrlProblem, isAllowedImageUrl, ownImageHost } from './image-url';
import { STORAGE_KEY_PATTERN } from './storage';

/** Accepted whether or not the service knows its own host. */
const ALWAYS = [
  '',
  '/api/uploads/0b6f3c2e-1d2a-4b5c-9e8f-123456789abc.png',
  '/api/uploads/abc_def',
  '/avatars/3.svg',
  '/game-assets/actors/ada_vance.svg',
  '/game-assets/organizations/HELX.svg',
  'https://cdn.example.com/images/cat.png',
  'https://cdn.example.com/images/cat.png?w=200&h=100#top',
  'https://images.example.org:8443/a/b/c.jpg',
  'https://example.com/apiary/bee.png',
  'https://example.com/My%20Photo.jpg',
  'https://example.com',
];

/** Refused whether or not the service knows its own host. */
const NEVER = [
  '/api/auth/onboard?username=x&displayName=y',
  '/api/users/me',
  '/settings',
  '/',
  '//evil.example/api/users/me',
  '/api/uploads/../users/me',
  '/api/uploads/a.png?x=1',
  '/api/uploads/a.png#x',
  '/api/uploads/%2e%2e%2fusers',
  '/api/uploads/.hidden',
  '/api/uploads/a..png',
  '/api/uploads/',
  '/avatars/1.svg/../../api/users/me',
  '/game-assets/x.svg',
  '/game-assets/actors/ada.png',
  '/uploads/a.png',
  'cat.png',
  ' /avatars/1.svg',
  'http://cdn.example.com/cat.png',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  'ftp://cdn.example.com/x.png',
  'HTTPS://cdn.example.com/cat.png',
  'https://user:pass@cdn.example.com/cat.png',
  'https://cdn.example.com@evil.example/cat.png',
  'https://cdn.example.com/cat png.png',
  'https://cdn.example.com\\@evil.example/x.png',
  'https://[::1]/x.png',
  'https://cdn.example.com/ünicode.png',
  'https://cdn.example.com/a/../b.png',
  'https://cdn.example.com/a/./b.png',
  'https://cdn.example.com/a%2fb.png',
  'https://cdn.example.com/a%5Cb.png',
  `https://cdn.example.com/${'a'.repeat(2100)}.png`,
];

describe('image URLs without PUBLIC_BASE_URL (own host unknown)', () => {
  it.each(ALWAYS)('accepts %j', (url) => expect(imageUrlProblem(url, null)).toBeNull());
  it.each(NEVER)('refuses %j', (url) => expect(imageUrlProblem(url, null)).toEqual(expect.any(String)));

  it("accepts this service's upload and bundled shapes on any host, http included (a development server's own)", () => {
    for (const url of ['http://localhost:3000/api/uploads/abc.png', 'https://play.example/api/uploads/abc.webp', 'http://127.0.0.1:3000/avatars/2.svg']) {
      expect(imageUrlProblem(url, null), url).toBeNull();
    }
  });

  it('refuses any path under /api on every host: it cannot tell its own host from others', () => {
    for (const url of [
      'https://play.example/api/users/me',
      'https://play.example/API/users/me',
      'https://play.example/%61pi/users/me',
      'https://play.example/a%50i/users/me',
      'https://play.example//api/users/me',
      'https://play.example/api',
      'https://play.example/api?x=1',
      'https://play.example/api;x/users/me',
      'https://play.example/api/uploads/abc.png?x=1',
      'https://play.example/x/%2e%2e/api/users/me',
      'https://ui-avatars.com/api/?name=x',
    ]) {
      expect(imageUrlProblem(url, null), url).toMatch(/API|dot segments/);
    }
  });
});

describe('image URLs with PUBLIC_BASE_URL (own host known)', () => {
  const own = 'play.example';
  it.each(ALWAYS)('accepts %j', (url) => expect(imageUrlProblem(url, own)).toBeNull());
  it.each(NEVER)('refuses %j', (url) => expect(imageUrlProblem(url, own)).toEqual(expect.any(String)));

  it('on its own host (any case, port or scheme) accepts only uploads and bundled images', () => {
    for (const url of ['https://play.example/api/uploads/a.png', 'https://PLAY.example./api/uploads/a.png', 'http://play.example:3000/avatars/1.svg']) {
      expect(imageUrlProblem(url, own), url).toBeNull();
    }
    for (const url of ['https://play.example/settings', 'https://play.example/', 'https://play.example', 'https://play.example/api/users/me', 'http://play.example:3000/api/auth/onboard?username=x']) {
      expect(imageUrlProblem(url, own), url).toMatch(/points into this service/);
    }
  });

  it('elsewhere takes any https URL, and no http one', () => {
    expect(imageUrlProblem('https://ui-avatars.com/api/?name=x', own)).toBeNull();
    expect(imageUrlProblem('https://other.example/api/uploads/a.png', own)).toBeNull();
    expect(imageUrlProblem('http://other.example/api/uploads/a.png', own)).toBe('must be https');
  });

  it('reads its host from PUBLIC_BASE_URL', () => {
    expect(ownImageHost('https://Play.Example:8443/')).toBe('play.example');
    expect(ownImageHost(undefined)).toBeNull();
    expect(isAllowedImageUrl('https://play.example/settings', ownImageHost('https://play.example'))).toBe(false);
  });
});

it("an upload key is exactly a storage key (lib/uploads/storage.ts)", () => {
  for (const key of ['a.png', 'A-b_c.webp', '0b6f3c2e-1d2a.gif', 'abc', '.png', 'a..png', 'a/b.png', 'a.b.png', '-a.png', 'a%2e.png', 'a.p-g']) {
    expect(isAllowedImageUrl(`/api/uploads/${key}`, null), key).toBe(STORAGE_KEY_PATTERN.test(key));
  }
});
