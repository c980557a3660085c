import { isAppError } from '@/lib/errors/app-error';

/** The value, or null when the thing does not exist (any 404 AppError); other errors propagate. */
export async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (e) {
    if (isAppError(e) && e.status === 404) return null;
    throw e;
  }
}
