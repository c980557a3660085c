/**
 * What each kind of registry entry can do, pure. Agents answer on the A2A JSON-RPC endpoint with
 * the methods listed here: lib/a2a/methods serves exactly these (its structure test checks).
 */
export const A2A_ENDPOINT = '/api/a2a';
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

export const A2A_METHODS = [
  'a2a.discover',
  'a2a.getInfo',
  'a2a.getMarketData',
  'a2a.getMarketPrices',
  'a2a.subscribeMarket',
  'a2a.getBalance',
  'a2a.getPositions',
  'a2a.getUserWallet',
  'a2a.getPnlHistory',
  'a2a.paymentRequest',
  'a2a.paymentReceipt',
  'a2a.placeOrder',
  'a2a.getOrderBook',
  'a2a.getOrders',
  'a2a.cancelOrder',
  'a2a.cancelOrders',
  'a2a.placePerpOrder',
  'a2a.getPredictions',
  'a2a.getPerpetuals',
  'a2a.buyShares',
  'a2a.sellShares',
  'a2a.openPosition',
  'a2a.closePosition',
  'moderation.blockUser',
  'moderation.unblockUser',
  'moderation.muteUser',
  'moderation.unmuteUser',
  'moderation.reportUser',
  'moderation.reportPost',
  'moderation.getBlocks',
  'moderation.getMutes',
  'moderation.checkBlockStatus',
  'moderation.checkMuteStatus',
] as const;

export function capabilitiesOf(type: 'user' | 'actor' | 'agent', opts: { managesPool?: boolean } = {}): string[] {
  if (type === 'actor') return ['post', 'news', 'trade', ...(opts.managesPool ? ['pool_manager'] : [])];
  if (type === 'agent') return ['trade', 'post', 'chat', 'a2a'];
  return ['trade', 'post', 'chat'];
}
