/**
 * A client generated from the OpenAPI document alone (openapi-fetch over the types of
 * schema.d.ts), calling a few operations the way a third party would. Nothing runs here: CI's
 * `tsc --noEmit` type-checks these calls against the document, so a contract change that breaks
 * such a client breaks the build (regenerate the types with `npm run openapi:client`).
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';

export type TApiClient = ReturnType<typeof createClient<paths>>;
type TError = components['schemas']['Error'];

export const createApiClient = (baseUrl: string, token?: string): TApiClient =>
  createClient<paths>({ baseUrl, headers: token ? { Authorization: `Bearer ${token}` } : {} });

/** Active markets, page 1: the YES price of each. */
export const activeMarketPrices = async (api: TApiClient) => {
  const { data, error } = await api.GET('/api/markets/predictions', {
    params: { query: { status: 'active', page: 1, limit: 20 } },
  });
  if (error) throw new Error(`${error.error.code}: ${error.error.message}`);
  const total: number = data.pagination.total;
  return { total, prices: data.markets.map((m) => ({ id: m.id, question: m.question, yesPrice: m.yesPrice })) };
};

/** Buys YES shares; the new balance is a decimal string, the error an envelope with a code. */
export const buyYes = async (api: TApiClient, marketId: string, amount: number) => {
  const { data, error, response } = await api.POST('/api/markets/predictions/{id}/buy', {
    params: { path: { id: marketId } },
    body: { outcome: 'YES', amount },
  });
  if (error) {
    const failure: TError = error;
    return { ok: false as const, status: response.status, code: failure.error.code };
  }
  const newBalance: string = data.newBalance;
  return { ok: true as const, shares: data.shares, newBalance, positionId: data.position.id };
};

/** A public profile by id or username, with its stats. */
export const profileOf = async (api: TApiClient, userId: string) => {
  const { data, error } = await api.GET('/api/users/{userId}/profile', { params: { path: { userId } } });
  if (error) return null;
  const { username, displayName, virtualBalance, stats } = data.user;
  return { username, displayName, virtualBalance, followers: stats.followersCount };
};

/** Opens a perpetual position (size and leverage as numbers). */
export const openLong = async (api: TApiClient, ticker: string, size: number, leverage: number) => {
  const { data } = await api.POST('/api/markets/perps/open', { body: { ticker, side: 'long', size, leverage } });
  return data?.position.liquidationPrice;
};

/** What the types refuse: each line below would compile only if the document said otherwise. */
export const refusedByTheTypes = async (api: TApiClient) => {
  // @ts-expect-error: an outcome is YES or NO
  await api.POST('/api/markets/predictions/{id}/buy', { params: { path: { id: 'm' } }, body: { outcome: 'MAYBE', amount: 1 } });
  // @ts-expect-error: the market id is a required path parameter
  await api.POST('/api/markets/predictions/{id}/buy', { body: { outcome: 'YES', amount: 1 } });
  // @ts-expect-error: status is active, resolved or all
  await api.GET('/api/markets/predictions', { params: { query: { status: 'open' } } });
  const { data } = await api.GET('/api/users/{userId}/profile', { params: { path: { userId: 'u' } } });
  // @ts-expect-error: a profile answer has no password field
  return data?.user.password;
};
