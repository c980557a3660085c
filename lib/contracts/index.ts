/** The registry of every endpoint: routes, the typed client and OpenAPI read this list. */
import type { TEndpoint } from './endpoint';
import { marketsEndpoints } from './markets';
import { mediaEndpoints } from './media';
import { perpsEndpoints } from './perps';
import { socialEndpoints } from './social';
import { uploadsEndpoints } from './uploads';
import { systemEndpoints } from './system';
import { usersEndpoints } from './users';
import { realtimeEndpoints } from './realtime';
import { gameEndpoints } from './game';
import { worldEndpoints } from './world';

export const endpoints: readonly TEndpoint[] = [...systemEndpoints, ...usersEndpoints, ...marketsEndpoints, ...perpsEndpoints, ...socialEndpoints, ...uploadsEndpoints, ...mediaEndpoints,
  ...realtimeEndpoints, ...gameEndpoints, ...worldEndpoints];
