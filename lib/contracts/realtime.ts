/** realtime endpoints (the living-world issue). */
import type { TEndpoint } from './endpoint';

export const realtimeEndpoints: readonly TEndpoint[] = [];
