CREATE TABLE "market_biases" (
	"id" text PRIMARY KEY NOT NULL,
	"market_id" text NOT NULL,
	"direction" text NOT NULL,
	"adjustment" numeric(10, 6) NOT NULL,
	"price_impact" numeric(10, 6) NOT NULL,
	"decay_rate" numeric(10, 6) NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_positions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"market_id" text NOT NULL,
	"side" text NOT NULL,
	"shares" numeric(38, 18) DEFAULT '0' NOT NULL,
	"cost_basis" numeric(30, 8) DEFAULT '0' NOT NULL,
	"realized_pnl" numeric(30, 8) DEFAULT '0' NOT NULL,
	"payout" numeric(30, 8),
	"settled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_price_points" (
	"id" text PRIMARY KEY NOT NULL,
	"market_id" text NOT NULL,
	"yes_price" numeric(38, 18) NOT NULL,
	"yes_shares" numeric(38, 18) NOT NULL,
	"no_shares" numeric(38, 18) NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trades" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"market_id" text NOT NULL,
	"position_id" text NOT NULL,
	"side" text NOT NULL,
	"action" text NOT NULL,
	"amount" numeric(30, 8) NOT NULL,
	"shares" numeric(38, 18) NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"fee_total" numeric(30, 8) NOT NULL,
	"fee_platform" numeric(30, 8) NOT NULL,
	"fee_referrer" numeric(30, 8) NOT NULL,
	"yes_price_after" numeric(38, 18) NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "volume" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "market_biases" ADD CONSTRAINT "market_biases_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_positions" ADD CONSTRAINT "market_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_positions" ADD CONSTRAINT "market_positions_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_price_points" ADD CONSTRAINT "market_price_points_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "market_biases_expires_idx" ON "market_biases" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "market_positions_user_market_side_idx" ON "market_positions" USING btree ("user_id","market_id","side");--> statement-breakpoint
CREATE INDEX "market_positions_market_idx" ON "market_positions" USING btree ("market_id");--> statement-breakpoint
CREATE INDEX "market_price_points_market_created_idx" ON "market_price_points" USING btree ("market_id","created_at");--> statement-breakpoint
CREATE INDEX "trades_created_idx" ON "trades" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "trades_user_created_idx" ON "trades" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "trades_market_created_idx" ON "trades" USING btree ("market_id","created_at");