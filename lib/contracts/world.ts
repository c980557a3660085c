/** world endpoints (the living-world issue). */
import type { TEndpoint } from './endpoint';

export const worldEndpoints: readonly TEndpoint[] = [];
