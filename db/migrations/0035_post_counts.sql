-- The feed's total without counting every post (lib/posts/queries.ts buildFeedCountQuery): GET
-- /api/posts's first page (the page form) counted the whole visible feed, 1.3 s at 10,000,000
-- posts. Posts are never deleted and never change author or type (a removal is a mark on the row),
-- so two counts kept by a statement-level trigger on posts give the same number:
--   post_counts: each author's posts by type;
--   post_totals: every post by type, in 16 shards (by the post id's hash) so that posts written at
--   once by different players do not queue on one row; a total is the sum of its 16 rows.
-- The feed of everyone is then the total less the posts of the authors the caller must not see
-- (lib/moderation canSee: a block either way, the caller's mutes, banned authors other than the
-- caller, and with `hideNpcs` the NPC actors), each taken from post_counts: it costs what those
-- sets hold, not what the feed holds. A delete is handled too, should one ever be written.
CREATE TABLE "post_counts" (
	"author_id" text NOT NULL REFERENCES "users"("id"),
	"type" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "post_counts_pk" PRIMARY KEY ("author_id", "type")
);
--> statement-breakpoint
CREATE TABLE "post_totals" (
	"type" text NOT NULL,
	"shard" integer NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "post_totals_pk" PRIMARY KEY ("type", "shard")
);
--> statement-breakpoint
-- The banned authors, for the total's subtraction (canSee probes the author row instead).
CREATE INDEX "users_banned_idx" ON "users" USING btree ("id") WHERE is_banned;
--> statement-breakpoint
CREATE FUNCTION post_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO post_counts AS c (author_id, type, n)
    SELECT author_id, type, count(*) FROM new_rows GROUP BY author_id, type ORDER BY author_id, type
    ON CONFLICT (author_id, type) DO UPDATE SET n = c.n + excluded.n;
    INSERT INTO post_totals AS t (type, shard, n)
    SELECT type, hashtext(id) & 15, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (type, shard) DO UPDATE SET n = t.n + excluded.n;
  ELSE
    UPDATE post_counts c SET n = c.n - d.n
    FROM (SELECT author_id, type, count(*) AS n FROM old_rows GROUP BY author_id, type) d
    WHERE c.author_id = d.author_id AND c.type = d.type;
    UPDATE post_totals t SET n = t.n - d.n
    FROM (SELECT type, hashtext(id) & 15 AS shard, count(*) AS n FROM old_rows GROUP BY 1, 2) d
    WHERE t.type = d.type AND t.shard = d.shard;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER posts_counts_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION post_counts_apply();
--> statement-breakpoint
CREATE TRIGGER posts_counts_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION post_counts_apply();
--> statement-breakpoint
-- The posts written so far.
INSERT INTO post_counts (author_id, type, n) SELECT author_id, type, count(*) FROM posts GROUP BY author_id, type;
--> statement-breakpoint
INSERT INTO post_totals (type, shard, n) SELECT type, hashtext(id) & 15, count(*) FROM posts GROUP BY 1, 2;
