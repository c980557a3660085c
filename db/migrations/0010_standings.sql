CREATE TABLE "equity_snapshots" (
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	"equity" numeric(30, 8) NOT NULL,
	"flows" numeric(30, 8) NOT NULL,
	"lifetime_pnl" numeric(30, 8) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "equity_snapshots_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "league_members" (
	"season_id" text NOT NULL,
	"user_id" text NOT NULL,
	"tier" integer NOT NULL,
	"start_equity" numeric(30, 8) NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"division" integer,
	"rank" integer,
	"score" numeric(20, 8),
	"season_return" numeric(20, 8),
	"volatility" numeric(20, 8),
	"trades" integer,
	"qualified" boolean,
	"outcome" text,
	CONSTRAINT "league_members_season_id_user_id_pk" PRIMARY KEY("season_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "league_seasons" (
	"id" text PRIMARY KEY NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "registry_apps" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"owner_id" text NOT NULL,
	"capabilities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "standings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"listed" boolean NOT NULL,
	"points" integer NOT NULL,
	"earned_points" integer NOT NULL,
	"referral_points" integer NOT NULL,
	"lifetime_pnl" numeric(30, 8) NOT NULL,
	"reputation" integer DEFAULT 0 NOT NULL,
	"reputation_level" text DEFAULT 'newcomer' NOT NULL,
	"reputation_at" timestamp with time zone,
	"refreshed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "standings_dirty" (
	"user_id" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "equity_snapshots" ADD CONSTRAINT "equity_snapshots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "league_members" ADD CONSTRAINT "league_members_season_id_league_seasons_id_fk" FOREIGN KEY ("season_id") REFERENCES "public"."league_seasons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "league_members" ADD CONSTRAINT "league_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry_apps" ADD CONSTRAINT "registry_apps_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "registry_apps" ADD CONSTRAINT "registry_apps_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "standings" ADD CONSTRAINT "standings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "equity_snapshots_day_idx" ON "equity_snapshots" USING btree ("day");--> statement-breakpoint
CREATE INDEX "league_members_user_idx" ON "league_members" USING btree ("user_id","season_id");--> statement-breakpoint
CREATE INDEX "registry_apps_created_idx" ON "registry_apps" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "standings_points_idx" ON "standings" USING btree ("points" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_earned_idx" ON "standings" USING btree ("earned_points" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_referral_idx" ON "standings" USING btree ("referral_points" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_reputation_idx" ON "standings" USING btree ("reputation" DESC NULLS LAST,"user_id") WHERE listed;--> statement-breakpoint
CREATE INDEX "standings_reputation_at_idx" ON "standings" USING btree ("reputation_at");--> statement-breakpoint
CREATE INDEX "standings_refreshed_idx" ON "standings" USING btree ("refreshed_at");--> statement-breakpoint
-- The standings read model learns which accounts changed from these marks, written in the
-- transaction that made the change (lib/standings/README.md). Pool accounts are never ranked.
CREATE FUNCTION standings_mark_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT NEW.is_pool_account THEN
    INSERT INTO standings_dirty (user_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER standings_user_inserted AFTER INSERT ON users FOR EACH ROW EXECUTE FUNCTION standings_mark_user();
--> statement-breakpoint
CREATE TRIGGER standings_user_changed AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.reputation_points IS DISTINCT FROM NEW.reputation_points
     OR OLD.lifetime_pnl IS DISTINCT FROM NEW.lifetime_pnl
     OR OLD.is_banned IS DISTINCT FROM NEW.is_banned
     OR OLD.is_agent IS DISTINCT FROM NEW.is_agent
     OR OLD.on_chain_registered IS DISTINCT FROM NEW.on_chain_registered
     OR OLD.username IS DISTINCT FROM NEW.username
     OR OLD.display_name IS DISTINCT FROM NEW.display_name
     OR OLD.profile_image_url IS DISTINCT FROM NEW.profile_image_url)
  EXECUTE FUNCTION standings_mark_user();
--> statement-breakpoint
CREATE FUNCTION standings_mark_followed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO standings_dirty (user_id)
  VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.following_id ELSE NEW.following_id END)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER standings_follow_changed AFTER INSERT OR DELETE ON follows FOR EACH ROW EXECUTE FUNCTION standings_mark_followed();
--> statement-breakpoint
INSERT INTO standings_dirty (user_id) SELECT id FROM users WHERE NOT is_pool_account;
