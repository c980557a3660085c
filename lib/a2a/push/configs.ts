/**
 * A2A 1.0 push notification configs (Create/Get/List/DeleteTaskPushNotificationConfig): where to
 * POST updates of one of the caller's tasks. Another caller's task, or a config that is not there,
 * is TASK_NOT_FOUND (-32001), as the 1.0 SDK's server answers. The URL is checked (url.ts); at most
 * MAX_CONFIGS_PER_CALLER per caller (per API key when the call came with one); each config has a
 * secret of its own, answered once at creation as `signingSecret`, that keys the
 * X-Playmoney-Signature of its deliveries (deliver.ts). Creating one delivers the task's current
 * state at once (the outbox, outbox.ts).
 */
import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { a2aPushConfigs, type TA2aPushConfigRow } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { env } from '@/lib/env';
import { AppError } from '@/lib/errors/app-error';
import { ownTask, storedTask } from '../service/tasks';
import { streamResponseOf, type TLegacyTask, type TV1PushConfig } from '../v1/shapes';
import { enqueuePushes } from './outbox';
import { checkPushUrl } from './url';

/** Push configs a caller may hold at once (per API key when called with one). */
export const MAX_CONFIGS_PER_CALLER = 10;

export type TPushConfigInput = { taskId: string; id?: string; url: string; token?: string; authentication?: { scheme: string; credentials?: string } };

const toConfig = (row: TA2aPushConfigRow): TV1PushConfig => ({
  id: row.configId,
  taskId: row.taskId,
  url: row.url,
  ...(row.token ? { token: row.token } : {}),
  ...(row.authentication ? { authentication: row.authentication } : {}),
});

const ownerFilter = (caller: TCaller) =>
  and(eq(a2aPushConfigs.ownerId, caller.userId), caller.apiKeyId ? eq(a2aPushConfigs.apiKeyId, caller.apiKeyId) : isNull(a2aPushConfigs.apiKeyId));

export async function createPushConfig(input: { caller: TCaller; config: TPushConfigInput }) {
  const { caller, config } = input;
  const task = await ownTask(caller, config.taskId);
  const url = checkPushUrl(config.url, { production: env().isProduction });
  const db = await getDb();
  const [{ held } = { held: 0 }] = await db.select({ held: count() }).from(a2aPushConfigs).where(ownerFilter(caller));
  if (Number(held) >= MAX_CONFIGS_PER_CALLER) {
    throw new AppError('CONFLICT', `At most ${MAX_CONFIGS_PER_CALLER} push notification configs at once: delete one first`, { limit: MAX_CONFIGS_PER_CALLER });
  }
  const rowId = crypto.randomUUID();
  const configId = config.id || rowId;
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  const row = await db.transaction(async (tx) => {
    const [made] = await tx
      .insert(a2aPushConfigs)
      .values({
        id: rowId,
        configId,
        taskId: task.id,
        ownerId: caller.userId,
        apiKeyId: caller.apiKeyId ?? null,
        url: url.toString(),
        token: config.token || null,
        authentication: config.authentication ?? null,
        secret,
        createdAt: now(),
      })
      .onConflictDoNothing()
      .returning();
    if (!made) throw new AppError('CONFLICT', 'The task already has a push notification config with this id', { id: configId });
    // The task's state as it stands, delivered at once.
    await enqueuePushes(tx, [{ configRowId: made.id, ownerId: caller.userId, body: JSON.stringify(streamResponseOf(storedTask(task) as TLegacyTask)) }]);
    return made;
  });
  return { ...toConfig(row), signingSecret: secret };
}

async function ownConfigs(caller: TCaller, taskId: string) {
  await ownTask(caller, taskId);
  return (await getDb())
    .select()
    .from(a2aPushConfigs)
    .where(and(eq(a2aPushConfigs.taskId, taskId), eq(a2aPushConfigs.ownerId, caller.userId)))
    .orderBy(asc(a2aPushConfigs.createdAt), asc(a2aPushConfigs.id));
}

export async function getPushConfig(input: { caller: TCaller; taskId: string; id: string }) {
  const row = (await ownConfigs(input.caller, input.taskId)).find((r) => r.configId === input.id);
  if (!row) throw new AppError('TASK_NOT_FOUND', 'Push notification config not found', { taskId: input.taskId, id: input.id });
  return toConfig(row);
}

/** Every config of the task (a caller holds at most MAX_CONFIGS_PER_CALLER: one page). */
export async function listPushConfigs(input: { caller: TCaller; taskId: string }) {
  return { configs: (await ownConfigs(input.caller, input.taskId)).map(toConfig), nextPageToken: '' };
}

/** Deletes the config (its pending deliveries go with it); one that is not there is not an error. */
export async function deletePushConfig(input: { caller: TCaller; taskId: string; id: string }) {
  await ownTask(input.caller, input.taskId);
  await (await getDb())
    .delete(a2aPushConfigs)
    .where(and(eq(a2aPushConfigs.taskId, input.taskId), eq(a2aPushConfigs.ownerId, input.caller.userId), eq(a2aPushConfigs.configId, input.id)));
  return null;
}
