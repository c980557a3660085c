-- Issue 31 (fair outcomes). Every game question is born with the probability its rule gives
-- (lib/game/outcomes.ts); an event question also with the outcome the world drew for it at
-- creation and, when drawn YES, the moment its event happens. The tick's news follows the draw and
-- the question resolves by it. Hidden columns: only the tick's news and resolution steps read
-- them. Null on rules made before this migration (they resolve from what happened, as before).
ALTER TABLE "question_rules" ADD COLUMN "probability" numeric(8, 6);--> statement-breakpoint
ALTER TABLE "question_rules" ADD COLUMN "drawn_outcome" text;--> statement-breakpoint
ALTER TABLE "question_rules" ADD COLUMN "event_at" timestamp with time zone;
--> statement-breakpoint
-- The seed's one question about a real quantity ("Will SOLR trade above 40 at the end of the
-- season?") resolved from its own market; in a world seeded before, it becomes what it measures: a
-- price rule on SOLR at its date, worded as the game's price questions (as the seed now makes it).
INSERT INTO "question_rules" ("market_id", "kind", "organization_id", "ticker", "comparison", "threshold", "created_at")
SELECT m."id", 'price', 'org-solr', 'SOLR', 'above', 40, m."created_at"
FROM "markets" m
WHERE m."id" = 'seed-q-5' AND m."status" = 'active' AND EXISTS (SELECT 1 FROM "organizations" o WHERE o."id" = 'org-solr')
ON CONFLICT ("market_id") DO NOTHING;--> statement-breakpoint
UPDATE "markets" SET "text" = 'Will $SOLR close above 40 by ' || to_char("resolution_date" AT TIME ZONE 'UTC', 'Dy, Mon FMDD') || '?'
WHERE "id" = 'seed-q-5' AND "status" = 'active' AND "text" = 'Will SOLR trade above 40 at the end of the season?';
