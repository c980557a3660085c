CREATE TABLE "question_rules" (
	"market_id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"organization_id" text,
	"ticker" text,
	"actor_id" text,
	"event_kind" text,
	"comparison" text,
	"threshold" numeric(30, 8),
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "world_events" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"organization_id" text,
	"actor_id" text,
	"impact" numeric(10, 6) DEFAULT '0' NOT NULL,
	"related_questions" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "game_clock" ADD COLUMN "paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "game_clock" ADD COLUMN "tick_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "game_clock" ADD COLUMN "last_run_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "game_clock" ADD COLUMN "last_tick_ms" integer;--> statement-breakpoint
ALTER TABLE "game_clock" ADD COLUMN "last_summary" jsonb;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "fair_value" numeric(30, 8);--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "volatility" numeric(10, 6) DEFAULT '0.004' NOT NULL;--> statement-breakpoint
ALTER TABLE "question_rules" ADD CONSTRAINT "question_rules_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_rules" ADD CONSTRAINT "question_rules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_rules" ADD CONSTRAINT "question_rules_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_events" ADD CONSTRAINT "world_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "world_events" ADD CONSTRAINT "world_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "world_events_created_idx" ON "world_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "world_events_org_kind_idx" ON "world_events" USING btree ("organization_id","kind","created_at");--> statement-breakpoint
CREATE INDEX "world_events_actor_kind_idx" ON "world_events" USING btree ("actor_id","kind","created_at");