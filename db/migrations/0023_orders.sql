CREATE TABLE "perp_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "perp_orders_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"ticker" text NOT NULL,
	"type" text NOT NULL,
	"side" text NOT NULL,
	"size" numeric(30, 8),
	"leverage" numeric(10, 4),
	"margin" numeric(30, 8),
	"reserved" numeric(30, 8) DEFAULT '0' NOT NULL,
	"trigger_price" numeric(38, 18) NOT NULL,
	"fires_when" text NOT NULL,
	"position_id" text,
	"result_position_id" text,
	"status" text NOT NULL,
	"client_order_id" text,
	"note" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"triggered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "prediction_orders" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "prediction_orders_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"market_id" text NOT NULL,
	"outcome" text NOT NULL,
	"limit_price" numeric(10, 4) NOT NULL,
	"amount" numeric(30, 8) NOT NULL,
	"filled_amount" numeric(30, 8) DEFAULT '0' NOT NULL,
	"shares" numeric(38, 18) DEFAULT '0' NOT NULL,
	"status" text NOT NULL,
	"time_in_force" text NOT NULL,
	"expires_at" timestamp with time zone,
	"client_order_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "open_yes_orders" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "markets" ADD COLUMN "open_no_orders" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "order_id" text;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD CONSTRAINT "perp_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD CONSTRAINT "perp_orders_ticker_perp_markets_ticker_fk" FOREIGN KEY ("ticker") REFERENCES "public"."perp_markets"("ticker") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD CONSTRAINT "perp_orders_position_id_perp_positions_id_fk" FOREIGN KEY ("position_id") REFERENCES "public"."perp_positions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_orders" ADD CONSTRAINT "prediction_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prediction_orders" ADD CONSTRAINT "prediction_orders_market_id_markets_id_fk" FOREIGN KEY ("market_id") REFERENCES "public"."markets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "perp_orders_trigger_idx" ON "perp_orders" USING btree ("ticker","fires_when","trigger_price") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "perp_orders_user_idx" ON "perp_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "perp_orders_position_idx" ON "perp_orders" USING btree ("position_id") WHERE status = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "perp_orders_client_id_idx" ON "perp_orders" USING btree ("user_id","client_order_id") WHERE status = 'open' and client_order_id is not null;--> statement-breakpoint
CREATE INDEX "prediction_orders_book_idx" ON "prediction_orders" USING btree ("market_id","outcome","limit_price" DESC NULLS LAST,"seq") WHERE status in ('open', 'partially_filled');--> statement-breakpoint
CREATE INDEX "prediction_orders_user_idx" ON "prediction_orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "prediction_orders_expiry_idx" ON "prediction_orders" USING btree ("expires_at") WHERE status in ('open', 'partially_filled') and expires_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "prediction_orders_client_id_idx" ON "prediction_orders" USING btree ("user_id","client_order_id") WHERE status in ('open', 'partially_filled') and client_order_id is not null;