CREATE TABLE "api_key_spend" (
	"key_id" text NOT NULL,
	"day" date NOT NULL,
	"amount" numeric(30, 8) NOT NULL,
	CONSTRAINT "api_key_spend_key_id_day_pk" PRIMARY KEY("key_id","day")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"max_order_amount" numeric(30, 8),
	"daily_limit" numeric(30, 8),
	"max_leverage" numeric(10, 4),
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"heartbeat_timeout_s" integer,
	"heartbeat_deadline" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "bot_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trades" ADD COLUMN "api_key_id" text;--> statement-breakpoint
ALTER TABLE "perp_positions" ADD COLUMN "api_key_id" text;--> statement-breakpoint
ALTER TABLE "perp_orders" ADD COLUMN "api_key_id" text;--> statement-breakpoint
ALTER TABLE "prediction_orders" ADD COLUMN "api_key_id" text;--> statement-breakpoint
ALTER TABLE "api_key_spend" ADD CONSTRAINT "api_key_spend_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash_idx" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_idx" ON "api_keys" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "api_keys_heartbeat_idx" ON "api_keys" USING btree ("heartbeat_deadline") WHERE heartbeat_deadline is not null;--> statement-breakpoint
CREATE INDEX "perp_orders_api_key_idx" ON "perp_orders" USING btree ("api_key_id") WHERE status = 'open' and api_key_id is not null;--> statement-breakpoint
CREATE INDEX "prediction_orders_api_key_idx" ON "prediction_orders" USING btree ("api_key_id") WHERE status in ('open', 'partially_filled') and api_key_id is not null;