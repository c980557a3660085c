/**
 * The registry of every endpoint: routes, the typed client and OpenAPI read this list. One
 * contract file per domain; its name is the name of the domain's service folder (lib/<domain>),
 * client queries (lib/client/queries/<domain>.ts) and components (components/<domain>).
 */
import { a2aEndpoints } from './a2a';
import { apiKeysEndpoints } from './api-keys';
import { adminEndpoints } from './admin';
import { chatsEndpoints } from './chats';
import { commentsEndpoints } from './comments';
import type { TEndpoint } from './endpoint';
import { followsEndpoints } from './follows';
import { gameEndpoints } from './game';
import { identityEndpoints } from './identity';
import { groupsEndpoints } from './groups';
import { marketsEndpoints } from './markets';
import { mcpEndpoints } from './mcp';
import { metricsEndpoints } from './metrics';
import { moderationEndpoints } from './moderation';
import { notificationsEndpoints } from './notifications';
import { onboardingEndpoints } from './onboarding';
import { ordersEndpoints } from './orders';
import { perpsEndpoints } from './perps';
import { pointsEndpoints } from './points';
import { poolsEndpoints } from './pools';
import { postsEndpoints } from './posts';
import { realtimeEndpoints } from './realtime';
import { referralsEndpoints } from './referrals';
import { statsEndpoints } from './stats';
import { standingsEndpoints } from './standings';
import { leaguesEndpoints } from './leagues';
import { reputationEndpoints } from './reputation';
import { registryEndpoints } from './registry';
import { systemEndpoints } from './system';
import { trackRecordEndpoints } from './track-record';
import { uploadsEndpoints } from './uploads';
import { waitlistEndpoints } from './waitlist';
import { walletsEndpoints } from './wallets';
import { usersEndpoints } from './users';
import { widgetsEndpoints } from './widgets';
import { worldEndpoints } from './world';
import { storylinesEndpoints } from './storylines';

export const endpoints: readonly TEndpoint[] = [
  ...systemEndpoints,
  ...usersEndpoints,
  ...trackRecordEndpoints,
  ...onboardingEndpoints,
  ...identityEndpoints,
  ...pointsEndpoints,
  ...referralsEndpoints,
  ...waitlistEndpoints,
  ...walletsEndpoints,
  ...statsEndpoints,
  ...standingsEndpoints,
  ...leaguesEndpoints,
  ...reputationEndpoints,
  ...registryEndpoints,
  ...a2aEndpoints,
  ...mcpEndpoints,
  ...apiKeysEndpoints,
  ...marketsEndpoints,
  ...perpsEndpoints,
  ...ordersEndpoints,
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
  ...storylinesEndpoints,
  ...metricsEndpoints,
];
