// TEMPORARY stub until lib/perps/service/orders.ts lands (then this file goes).
import type { z } from 'zod';
import type { Tx } from '@/db/client';
import type { TPerpOrderRow } from '@/db/schema';
import type { ZPerpOrder } from '@/lib/contracts/orders';
import { AppError } from '@/lib/errors/app-error';

export function perpOrderDto(r: TPerpOrderRow): z.infer<typeof ZPerpOrder> {
  return { id: r.id, kind: 'perp' } as z.infer<typeof ZPerpOrder>;
}
export async function cancelPerpOrder(_tx: Tx, o: { userId: string; orderId: string }): Promise<z.infer<typeof ZPerpOrder>> {
  throw new AppError('ORDER_NOT_FOUND', 'Order not found', { orderId: o.orderId });
}
export async function cancelPerpOrders(_tx: Tx, _o: { userId: string; ticker?: string; clientOrderId?: string }): Promise<string[]> {
  return [];
}
