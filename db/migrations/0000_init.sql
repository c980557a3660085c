CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"auth_subject" text,
	"username" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"bio" text,
	"email" text,
	"profile_image_url" text,
	"cover_image_url" text,
	"wallet_address" text,
	"virtual_balance" numeric(30, 8) DEFAULT '0' NOT NULL,
	"total_deposited" numeric(30, 8) DEFAULT '0' NOT NULL,
	"total_withdrawn" numeric(30, 8) DEFAULT '0' NOT NULL,
	"lifetime_pnl" numeric(30, 8) DEFAULT '0' NOT NULL,
	"reputation_points" integer DEFAULT 0 NOT NULL,
	"is_actor" boolean DEFAULT false NOT NULL,
	"is_agent" boolean DEFAULT false NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"is_banned" boolean DEFAULT false NOT NULL,
	"profile_complete" boolean DEFAULT false NOT NULL,
	"on_chain_registered" boolean DEFAULT false NOT NULL,
	"has_social_a" boolean DEFAULT false NOT NULL,
	"has_social_b" boolean DEFAULT false NOT NULL,
	"referral_code" text NOT NULL,
	"referred_by_id" text,
	"username_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "users_auth_subject_unique" UNIQUE("auth_subject"),
	CONSTRAINT "users_wallet_address_unique" UNIQUE("wallet_address"),
	CONSTRAINT "users_referral_code_unique" UNIQUE("referral_code")
);
--> statement-breakpoint
CREATE TABLE "balance_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "balance_transactions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"type" text NOT NULL,
	"amount" numeric(30, 8) NOT NULL,
	"balance_before" numeric(30, 8) NOT NULL,
	"balance_after" numeric(30, 8) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"reference_type" text,
	"reference_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "actors" (
	"user_id" text PRIMARY KEY NOT NULL,
	"tier" text NOT NULL,
	"role" text DEFAULT '' NOT NULL,
	"personality" text DEFAULT '' NOT NULL,
	"organization_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"ticker" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"sector" text DEFAULT '' NOT NULL,
	"initial_price" numeric(30, 8) NOT NULL,
	"current_price" numeric(30, 8) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "organizations_ticker_unique" UNIQUE("ticker")
);
--> statement-breakpoint
CREATE TABLE "markets" (
	"id" text PRIMARY KEY NOT NULL,
	"question_number" integer GENERATED ALWAYS AS IDENTITY (sequence name "markets_question_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"text" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"yes_shares" numeric(38, 18) NOT NULL,
	"no_shares" numeric(38, 18) NOT NULL,
	"liquidity" numeric(30, 8) NOT NULL,
	"resolution_date" timestamp with time zone NOT NULL,
	"resolved_outcome" text,
	"resolved_at" timestamp with time zone,
	"created_by_id" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "markets_question_number_unique" UNIQUE("question_number")
);
--> statement-breakpoint
CREATE TABLE "pools" (
	"id" text PRIMARY KEY NOT NULL,
	"npc_actor_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tier" text NOT NULL,
	"total_value" numeric(30, 8) DEFAULT '0' NOT NULL,
	"total_shares" numeric(38, 18) DEFAULT '0' NOT NULL,
	"lifetime_pnl" numeric(30, 8) DEFAULT '0' NOT NULL,
	"performance_fee_rate" numeric(6, 4) NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "balance_transactions" ADD CONSTRAINT "balance_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actors" ADD CONSTRAINT "actors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "actors" ADD CONSTRAINT "actors_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "markets" ADD CONSTRAINT "markets_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pools" ADD CONSTRAINT "pools_npc_actor_id_users_id_fk" FOREIGN KEY ("npc_actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "users_is_actor_idx" ON "users" USING btree ("is_actor");--> statement-breakpoint
CREATE INDEX "users_referred_by_idx" ON "users" USING btree ("referred_by_id");--> statement-breakpoint
CREATE INDEX "balance_transactions_user_seq_idx" ON "balance_transactions" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "markets_status_idx" ON "markets" USING btree ("status","resolution_date");