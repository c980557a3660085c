/** game endpoints (the living-world issue). */
import type { TEndpoint } from './endpoint';

export const gameEndpoints: readonly TEndpoint[] = [];
