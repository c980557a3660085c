/** The opaque feed cursor for keyset pagination (newest first): the last item's time and id. Server side. */
import { AppError } from '@/lib/errors/app-error';

export type TCursor = { at: Date; id: string };

export function encodeCursor(c: TCursor) {
  return Buffer.from(JSON.stringify([c.at.toISOString(), c.id])).toString('base64url');
}

export function decodeCursor(s: string): TCursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as [string, string];
    const d = new Date(at);
    if (typeof id !== 'string' || id === '' || Number.isNaN(d.getTime())) throw new Error('bad cursor');
    return { at: d, id };
  } catch {
    throw new AppError('INVALID_PARAMETER', 'Invalid cursor', { cursor: s });
  }
}

