/**
 * The caller's per-kind notification preferences (notification_preferences): every kind of
 * ./labels.ts PREFERENCE_KINDS with its channel, `in_app` when there is no row; saved in one
 * upsert. Writers apply them through ./delivery.ts.
 */
import 'server-only';
import { sql } from 'drizzle-orm';
import { getDb, rowsOf } from '@/db/client';
import { notificationPreferences } from '@/db/schema';
import type { TCaller } from '@/lib/auth/caller';
import { now } from '@/lib/clock/clock';
import { KIND_LABELS, PREFERENCE_KINDS, type TNotificationChannel, type TPreferenceKind } from './labels';

export type TNotificationPreference = { kind: TPreferenceKind; label: string; description: string; channel: TNotificationChannel };

/** Every kind, in PREFERENCE_KINDS order, with the caller's channel (default in_app). */
export async function getPreferences(input: { caller: TCaller }) {
  const db = await getDb();
  const rows = rowsOf<{ kind: string; channel: TNotificationChannel }>(
    await db.execute(sql`select kind, channel from ${notificationPreferences} where user_id = ${input.caller.userId}`),
  );
  const chosen = new Map(rows.map((r) => [r.kind, r.channel]));
  const preferences: TNotificationPreference[] = PREFERENCE_KINDS.map((kind) => ({
    kind,
    label: KIND_LABELS[kind].label,
    description: KIND_LABELS[kind].hint,
    channel: chosen.get(kind) ?? 'in_app',
  }));
  return { preferences };
}

/** Sets the given kinds' channels (one upsert; a kind named twice keeps its last channel) and answers them all. */
export async function setPreferences(input: { caller: TCaller; preferences: { kind: TPreferenceKind; channel: TNotificationChannel }[] }) {
  const last = new Map(input.preferences.map((p) => [p.kind, p.channel]));
  if (last.size > 0) {
    const at = now();
    const db = await getDb();
    await db
      .insert(notificationPreferences)
      .values([...last].map(([kind, channel]) => ({ userId: input.caller.userId, kind, channel, updatedAt: at })))
      .onConflictDoUpdate({
        target: [notificationPreferences.userId, notificationPreferences.kind],
        set: { channel: sql`excluded.channel`, updatedAt: sql`excluded.updated_at` },
      });
  }
  return getPreferences({ caller: input.caller });
}
