CREATE TABLE "pool_deposits" (
	"id" text PRIMARY KEY NOT NULL,
	"pool_id" text NOT NULL,
	"user_id" text NOT NULL,
	"amount" numeric(30, 8) NOT NULL,
	"shares" numeric(38, 18) NOT NULL,
	"share_price" numeric(38, 18) NOT NULL,
	"remaining_shares" numeric(38, 18) NOT NULL,
	"cost_basis" numeric(30, 8) NOT NULL,
	"withdrawn_value" numeric(30, 8) DEFAULT '0' NOT NULL,
	"realized_pnl" numeric(30, 8) DEFAULT '0' NOT NULL,
	"fees_paid" numeric(30, 8) DEFAULT '0' NOT NULL,
	"is_seed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pool_nav_points" (
	"id" text PRIMARY KEY NOT NULL,
	"pool_id" text NOT NULL,
	"total_value" numeric(30, 8) NOT NULL,
	"total_shares" numeric(38, 18) NOT NULL,
	"share_price" numeric(38, 18) NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pool_withdrawals" (
	"id" text PRIMARY KEY NOT NULL,
	"pool_id" text NOT NULL,
	"deposit_id" text NOT NULL,
	"user_id" text NOT NULL,
	"shares" numeric(38, 18) NOT NULL,
	"share_price" numeric(38, 18) NOT NULL,
	"value" numeric(30, 8) NOT NULL,
	"pnl" numeric(30, 8) NOT NULL,
	"performance_fee" numeric(30, 8) NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_pool_account" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Pools seeded before this migration had no account and no money behind them (nothing could be
-- deposited): they go, and the world seed creates them again with accounts and seed capital.
DELETE FROM "pools";--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "account_user_id" text NOT NULL;--> statement-breakpoint
ALTER TABLE "pools" ADD COLUMN "net_deposits" numeric(30, 8) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "pool_deposits" ADD CONSTRAINT "pool_deposits_pool_id_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."pools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_deposits" ADD CONSTRAINT "pool_deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_nav_points" ADD CONSTRAINT "pool_nav_points_pool_id_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."pools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_withdrawals" ADD CONSTRAINT "pool_withdrawals_pool_id_pools_id_fk" FOREIGN KEY ("pool_id") REFERENCES "public"."pools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_withdrawals" ADD CONSTRAINT "pool_withdrawals_deposit_id_pool_deposits_id_fk" FOREIGN KEY ("deposit_id") REFERENCES "public"."pool_deposits"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_withdrawals" ADD CONSTRAINT "pool_withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pool_deposits_user_idx" ON "pool_deposits" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "pool_deposits_pool_idx" ON "pool_deposits" USING btree ("pool_id","created_at");--> statement-breakpoint
CREATE INDEX "pool_nav_points_pool_idx" ON "pool_nav_points" USING btree ("pool_id","created_at");--> statement-breakpoint
CREATE INDEX "pool_withdrawals_pool_idx" ON "pool_withdrawals" USING btree ("pool_id","created_at");--> statement-breakpoint
CREATE INDEX "pool_withdrawals_deposit_idx" ON "pool_withdrawals" USING btree ("deposit_id");--> statement-breakpoint
ALTER TABLE "pools" ADD CONSTRAINT "pools_account_user_id_users_id_fk" FOREIGN KEY ("account_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pools_npc_actor_idx" ON "pools" USING btree ("npc_actor_id");--> statement-breakpoint
ALTER TABLE "pools" DROP COLUMN "lifetime_pnl";--> statement-breakpoint
ALTER TABLE "pools" ADD CONSTRAINT "pools_account_user_id_unique" UNIQUE("account_user_id");