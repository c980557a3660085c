/** Column helpers shared by the per-domain schema files. */
import { numeric, text, timestamp } from 'drizzle-orm/pg-core';

/** Text primary key with a random UUID; identifiers are strings in the API. */
export function idColumn() {
  return text('id')
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID());
}

/** Money: exact, 8 decimal places. Read back as a string, never a float. */
export function money(name: string) {
  return numeric(name, { precision: 30, scale: 8 });
}

/** Shares, reserves and prices: more places than money so that AMM math loses nothing visible. */
export function quantity(name: string) {
  return numeric(name, { precision: 38, scale: 18 });
}

export function timestamptz(name: string) {
  return timestamp(name, { withTimezone: true, mode: 'date' });
}
