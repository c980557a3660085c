CREATE TABLE "npc_calibration" (
	"user_id" text PRIMARY KEY NOT NULL,
	"resolved" integer DEFAULT 0 NOT NULL,
	"right" integer DEFAULT 0 NOT NULL,
	"brier" numeric(8, 6),
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "npc_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"market_id" text NOT NULL,
	"probability" numeric(6, 4) NOT NULL,
	"source" text NOT NULL,
	"beat_id" text,
	"post_id" text,
	"called_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storyline_beats" (
	"id" text PRIMARY KEY NOT NULL,
	"storyline_id" text NOT NULL,
	"seq" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"headline" text NOT NULL,
	"body" text NOT NULL,
	"actor_id" text,
	"role" text NOT NULL,
	"direction" text,
	"truthful" boolean,
	"impact" numeric(10, 6) DEFAULT '0' NOT NULL,
	"published_at" timestamp with time zone,
	"post_id" text,
	"world_event_id" text
);
--> statement-breakpoint
CREATE TABLE "storylines" (
	"id" text PRIMARY KEY NOT NULL,
	"market_id" text NOT NULL,
	"organization_id" text,
	"other_organization_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"title" text NOT NULL,
	"theme" text NOT NULL,
	"truth" text,
	"plan" jsonb NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"published_at" timestamp with time zone,
	"outcome" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "storylines_market_id_unique" UNIQUE("market_id")
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "fundamental_value" numeric(30, 8);--> statement-breakpoint
ALTER TABLE "question_rules" ADD COLUMN "rival_organization_id" text;--> statement-breakpoint
ALTER TABLE "question_rules" ADD COLUMN "baseline" numeric(20, 10);--> statement-breakpoint
ALTER TABLE "npc_calibration" ADD CONSTRAINT "npc_calibration_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "npc_calls" ADD CONSTRAINT "npc_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "npc_calls" ADD CONSTRAINT "npc_calls_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storyline_beats" ADD CONSTRAINT "storyline_beats_storyline_id_storylines_id_fk" FOREIGN KEY ("storyline_id") REFERENCES "public"."storylines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storyline_beats" ADD CONSTRAINT "storyline_beats_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storylines" ADD CONSTRAINT "storylines_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storylines" ADD CONSTRAINT "storylines_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "npc_calls_market_idx" ON "npc_calls" USING btree ("market_id","user_id");--> statement-breakpoint
CREATE INDEX "npc_calls_user_idx" ON "npc_calls" USING btree ("user_id","called_at");--> statement-breakpoint
CREATE UNIQUE INDEX "storyline_beats_seq_idx" ON "storyline_beats" USING btree ("storyline_id","seq");--> statement-breakpoint
CREATE INDEX "storyline_beats_due_idx" ON "storyline_beats" USING btree ("at") WHERE published_at is null;--> statement-breakpoint
CREATE INDEX "storylines_org_idx" ON "storylines" USING btree ("organization_id","created_at");--> statement-breakpoint
CREATE INDEX "storylines_published_idx" ON "storylines" USING btree ("published_at");--> statement-breakpoint
ALTER TABLE "question_rules" ADD CONSTRAINT "question_rules_rival_organization_id_organizations_id_fk" FOREIGN KEY ("rival_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;