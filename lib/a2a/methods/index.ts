/** The one table of A2A methods, by name and by alias. */
import { discoveryMethods } from './discovery';
import { marketMethods } from './markets';
import { moderationMethods } from './moderation';
import { orderMethods } from './orders';
import { paymentMethods } from './payments';
import { portfolioMethods } from './portfolio';
import { tradingMethods } from './trading';
import type { TA2aMethod } from './types';

export const A2A_METHOD_TABLE: readonly TA2aMethod[] = [...discoveryMethods, ...marketMethods, ...portfolioMethods, ...orderMethods, ...tradingMethods, ...paymentMethods, ...moderationMethods] as TA2aMethod[];

const byName = new Map<string, TA2aMethod>();
for (const m of A2A_METHOD_TABLE) {
  for (const name of [m.name, ...(m.aliases ?? [])]) {
    if (byName.has(name)) throw new Error(`a2a: two methods are called ${name}`);
    byName.set(name, m);
  }
}

/** The method a name (or an alias) calls, if any. */
export function findMethod(name: string): TA2aMethod | undefined {
  return byName.get(name);
}
