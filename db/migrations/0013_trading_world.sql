ALTER TABLE "perp_positions" ADD COLUMN "liquidation_warned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "kind" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "link" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "trade_kind" text;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "trade_id" text;