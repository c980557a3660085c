/**
 * The registry of every endpoint: routes, the typed client and OpenAPI read this list. One
 * contract file per domain; its name is the name of the domain's service folder (lib/<domain>),
 * client queries (lib/client/queries/<domain>.ts) and components (components/<domain>).
 */
import { adminEndpoints } from './admin';
import { chatsEndpoints } from './chats';
import { commentsEndpoints } from './comments';
import type { TEndpoint } from './endpoint';
import { followsEndpoints } from './follows';
import { gameEndpoints } from './game';
import { groupsEndpoints } from './groups';
import { marketsEndpoints } from './markets';
import { moderationEndpoints } from './moderation';
import { notificationsEndpoints } from './notifications';
import { perpsEndpoints } from './perps';
import { poolsEndpoints } from './pools';
import { postsEndpoints } from './posts';
import { realtimeEndpoints } from './realtime';
import { systemEndpoints } from './system';
import { uploadsEndpoints } from './uploads';
import { usersEndpoints } from './users';
import { widgetsEndpoints } from './widgets';
import { worldEndpoints } from './world';

export const endpoints: readonly TEndpoint[] = [
  ...systemEndpoints,
  ...usersEndpoints,
  ...marketsEndpoints,
  ...perpsEndpoints,
  ...poolsEndpoints,
  ...postsEndpoints,
  ...commentsEndpoints,
  ...followsEndpoints,
  ...notificationsEndpoints,
  ...moderationEndpoints,
  ...adminEndpoints,
  ...chatsEndpoints,
  ...groupsEndpoints,
  ...widgetsEndpoints,
  ...uploadsEndpoints,
  ...realtimeEndpoints,
  ...gameEndpoints,
  ...worldEndpoints,
];
