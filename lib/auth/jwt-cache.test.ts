import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenForSubject } from '@/test/http';
import { verifyAccessToken } from './jwt';

afterEach(() => vi.restoreAllMocks());

describe('verifyAccessToken remembers a verified token', () => {
  it('checks the signature of a token sent on every request once, not once a request', async () => {
    const token = await tokenForSubject('repeat-user');
    const verify = vi.spyOn(crypto.subtle, 'verify');
    for (let i = 0; i < 50; i++) expect(await verifyAccessToken(token)).toMatchObject({ subject: 'repeat-user' });
    expect(verify).toHaveBeenCalledTimes(1);
  });

  it('keys the memory by the whole token: another token of the same subject is checked on its own, a bad one every time', async () => {
    const a = await tokenForSubject('same-subject');
    const b = await tokenForSubject('same-subject', { name: 'B' });
    const forged = `${a.slice(0, a.lastIndexOf('.') + 1)}${'A'.repeat(43)}`;
    const verify = vi.spyOn(crypto.subtle, 'verify');
    expect(await verifyAccessToken(a)).toMatchObject({ subject: 'same-subject' });
    expect(await verifyAccessToken(b)).toMatchObject({ subject: 'same-subject', name: 'B' });
    expect(await verifyAccessToken(forged)).toBeNull();
    expect(await verifyAccessToken(forged)).toBeNull();
    expect(verify).toHaveBeenCalledTimes(4);
  });
});
