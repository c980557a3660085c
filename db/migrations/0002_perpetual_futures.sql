CREATE TABLE "game_clock" (
	"id" text PRIMARY KEY NOT NULL,
	"last_tick_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_funding_payments" (
	"position_id" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"amount" numeric(30, 8) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "perp_funding_payments_position_id_period_start_pk" PRIMARY KEY("position_id","period_start")
);
--> statement-breakpoint
CREATE TABLE "perp_funding_rates" (
	"ticker" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"rate" numeric(38, 18) NOT NULL,
	"mark_price" numeric(38, 18) NOT NULL,
	"index_price" numeric(38, 18) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "perp_funding_rates_ticker_period_start_pk" PRIMARY KEY("ticker","period_start")
);
--> statement-breakpoint
CREATE TABLE "perp_markets" (
	"ticker" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"mark_price" numeric(38, 18) NOT NULL,
	"depth" numeric(30, 8) NOT NULL,
	"volume" numeric(30, 8) DEFAULT '0' NOT NULL,
	"last_funding_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_positions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"ticker" text NOT NULL,
	"side" text NOT NULL,
	"size" numeric(30, 8) NOT NULL,
	"units" numeric(38, 18) NOT NULL,
	"entry_price" numeric(38, 18) NOT NULL,
	"leverage" numeric(10, 4) NOT NULL,
	"margin" numeric(30, 8) NOT NULL,
	"collateral" numeric(30, 8) NOT NULL,
	"funding_paid" numeric(30, 8) DEFAULT '0' NOT NULL,
	"liquidation_price" numeric(38, 18) NOT NULL,
	"open_fee" numeric(30, 8) NOT NULL,
	"close_fee" numeric(30, 8),
	"exit_price" numeric(38, 18),
	"realized_pnl" numeric(30, 8),
	"net_pnl" numeric(30, 8),
	"status" text DEFAULT 'open' NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_price_points" (
	"id" text PRIMARY KEY NOT NULL,
	"ticker" text NOT NULL,
	"mark_price" numeric(38, 18) NOT NULL,
	"index_price" numeric(38, 18) NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "perp_trades" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"position_id" text NOT NULL,
	"ticker" text NOT NULL,
	"side" text NOT NULL,
	"action" text NOT NULL,
	"size" numeric(30, 8) NOT NULL,
	"price" numeric(38, 18) NOT NULL,
	"fee" numeric(30, 8) NOT NULL,
	"realized_pnl" numeric(30, 8),
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"actor_id" text,
	"post_id" text,
	"comment_id" text,
	"title" text NOT NULL,
	"message" text NOT NULL,
	"read" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "perp_funding_payments" ADD CONSTRAINT "perp_funding_payments_position_id_perp_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."perp_positions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_funding_rates" ADD CONSTRAINT "perp_funding_rates_ticker_perp_markets_ticker_fk" FOREIGN KEY ("ticker") REFERENCES "public"."perp_markets"("ticker") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_markets" ADD CONSTRAINT "perp_markets_ticker_organizations_ticker_fk" FOREIGN KEY ("ticker") REFERENCES "public"."organizations"("ticker") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_markets" ADD CONSTRAINT "perp_markets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_positions" ADD CONSTRAINT "perp_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_positions" ADD CONSTRAINT "perp_positions_ticker_perp_markets_ticker_fk" FOREIGN KEY ("ticker") REFERENCES "public"."perp_markets"("ticker") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_price_points" ADD CONSTRAINT "perp_price_points_ticker_perp_markets_ticker_fk" FOREIGN KEY ("ticker") REFERENCES "public"."perp_markets"("ticker") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_trades" ADD CONSTRAINT "perp_trades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_trades" ADD CONSTRAINT "perp_trades_position_id_perp_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."perp_positions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "perp_positions_user_status_idx" ON "perp_positions" USING btree ("user_id","status","opened_at");--> statement-breakpoint
CREATE INDEX "perp_positions_liquidation_idx" ON "perp_positions" USING btree ("ticker","side","liquidation_price") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "perp_price_points_ticker_created_idx" ON "perp_price_points" USING btree ("ticker","created_at");--> statement-breakpoint
CREATE INDEX "perp_trades_created_idx" ON "perp_trades" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "perp_trades_position_idx" ON "perp_trades" USING btree ("position_id");--> statement-breakpoint
CREATE INDEX "perp_trades_user_created_idx" ON "perp_trades" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "perp_trades_ticker_created_idx" ON "perp_trades" USING btree ("ticker","created_at");--> statement-breakpoint
CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at");