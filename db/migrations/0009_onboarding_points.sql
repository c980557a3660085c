CREATE SEQUENCE "public"."identity_token_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "onboarding_intents" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"status" text NOT NULL,
	"nft_token_id" integer NOT NULL,
	"registrar" text NOT NULL,
	"tx_hash" text,
	"owner_address" text,
	"failure_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "onboarding_intents_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "onboarding_intents_nft_token_id_unique" UNIQUE("nft_token_id")
);
--> statement-breakpoint
CREATE TABLE "points_awards" (
	"user_id" text NOT NULL,
	"award_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "points_awards_user_id_award_key_pk" PRIMARY KEY("user_id","award_key")
);
--> statement-breakpoint
CREATE TABLE "points_transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "points_transactions_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" text NOT NULL,
	"amount" integer NOT NULL,
	"points_before" integer NOT NULL,
	"points_after" integer NOT NULL,
	"reason" text NOT NULL,
	"award_key" text,
	"metadata" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_fees" (
	"id" text PRIMARY KEY NOT NULL,
	"referrer_id" text NOT NULL,
	"referred_user_id" text NOT NULL,
	"source" text NOT NULL,
	"amount" numeric(30, 8) NOT NULL,
	"transaction_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"id" text PRIMARY KEY NOT NULL,
	"referrer_id" text NOT NULL,
	"referred_user_id" text NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"code" text NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "referrals_referred_user_id_unique" UNIQUE("referred_user_id")
);
--> statement-breakpoint
CREATE TABLE "share_actions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"platform" text NOT NULL,
	"content_type" text NOT NULL,
	"content_id" text NOT NULL,
	"url" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"external_post_id" text,
	"external_url" text,
	"points_awarded" integer DEFAULT 0 NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "social_links" (
	"user_id" text NOT NULL,
	"platform" text NOT NULL,
	"username" text NOT NULL,
	"linked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "social_links_user_id_platform_pk" PRIMARY KEY("user_id","platform")
);
--> statement-breakpoint
CREATE TABLE "waitlist_emails" (
	"user_id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "show_social_a_public" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "show_social_b_public" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "show_wallet_public" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "onboarding_intents" ADD CONSTRAINT "onboarding_intents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_awards" ADD CONSTRAINT "points_awards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "points_transactions" ADD CONSTRAINT "points_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referrer_id_users_id_fk" FOREIGN KEY ("referrer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_referred_user_id_users_id_fk" FOREIGN KEY ("referred_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_actions" ADD CONSTRAINT "share_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_links" ADD CONSTRAINT "social_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_emails" ADD CONSTRAINT "waitlist_emails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "points_transactions_user_seq_idx" ON "points_transactions" USING btree ("user_id","seq");--> statement-breakpoint
CREATE INDEX "referral_fees_referrer_idx" ON "referral_fees" USING btree ("referrer_id","created_at");--> statement-breakpoint
CREATE INDEX "referrals_referrer_idx" ON "referrals" USING btree ("referrer_id","completed_at");--> statement-breakpoint
CREATE INDEX "share_actions_user_idx" ON "share_actions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_emails_email_idx" ON "waitlist_emails" USING btree (lower("email"));--> statement-breakpoint
-- Points held before the points ledger existed (seeded NPC standing) open each chain with one row.
INSERT INTO "points_transactions" ("id", "user_id", "amount", "points_before", "points_after", "reason", "created_at")
SELECT gen_random_uuid()::text, "id", "reputation_points", 0, "reputation_points", 'opening_balance', now() FROM "users" WHERE "reputation_points" > 0;
