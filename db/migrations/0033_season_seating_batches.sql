-- A new season's seating taken in batches over ticks (lib/leagues/service/seasons.ts
-- seatNewSeasonStep): at a million accounts one statement that seats them all outlives the
-- statement bound (8 s). The seating is a plan, then seats:
--   stage: the next accounts in user id order (code units: COLLATE "C"), their tier computed
--          (nextTier, spreadTier continuing from the NPCs dealt so far, placementTier), written to
--          league_seating_plan; the cursor and the NPCs dealt kept in league_seating;
--   seat:  the plan's next rows after a keyset cursor in (tier, start equity, user id) order, each
--          division computed from its rank in its tier (the cursor keeps the rank reached in its
--          tier) and the tier's size (divisionsOf), inserted as league members;
--   clean: the plan's rows deleted, a batch a tick.
CREATE TABLE "league_seating" (
	"season_id" text PRIMARY KEY NOT NULL REFERENCES "league_seasons"("id"),
	"day" date NOT NULL,
	"phase" text NOT NULL,
	"after_user_id" text,
	"npc_dealt" integer DEFAULT 0 NOT NULL,
	"seat_tier" integer,
	"seat_equity" numeric(30, 8),
	"seat_user_id" text,
	"seat_rank" bigint DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "league_seating_plan" (
	"season_id" text NOT NULL REFERENCES "league_seasons"("id"),
	"user_id" text NOT NULL,
	"tier" integer NOT NULL,
	"equity" numeric(30, 8) NOT NULL,
	CONSTRAINT "league_seating_plan_pk" PRIMARY KEY ("season_id", "user_id")
);
--> statement-breakpoint
-- The seat phase reads the plan in this order: an index scan, no sort of the whole field per tick.
CREATE INDEX "league_seating_plan_order_idx" ON "league_seating_plan" USING btree ("season_id", "tier", "equity", "user_id" COLLATE "C");
--> statement-breakpoint
-- The stage phase's cursor over listed accounts in code-unit order of their ids.
CREATE INDEX "standings_listed_user_c_idx" ON "standings" USING btree ("user_id" COLLATE "C") WHERE listed;
