CREATE TABLE "wallet_challenges" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"address" text NOT NULL,
	"message" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"signature" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "waitlist_email_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "waitlist_email_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "wallet_challenges" ADD CONSTRAINT "wallet_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_email_tokens" ADD CONSTRAINT "waitlist_email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "wallet_challenges_user_idx" ON "wallet_challenges" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "waitlist_email_tokens_user_idx" ON "waitlist_email_tokens" USING btree ("user_id");--> statement-breakpoint
-- One external post verifies at most one share, ever: a post already used by an earlier
-- verification keeps its id there and is cleared from the later ones (their URL stays).
UPDATE "share_actions" AS "s" SET "external_post_id" = NULL
WHERE "s"."external_post_id" IS NOT NULL AND EXISTS (
	SELECT 1 FROM "share_actions" AS "f"
	WHERE "f"."platform" = "s"."platform" AND "f"."external_post_id" = "s"."external_post_id"
	  AND (coalesce("f"."verified_at", "f"."created_at"), "f"."id") < (coalesce("s"."verified_at", "s"."created_at"), "s"."id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "share_actions_external_post_idx" ON "share_actions" USING btree ("platform","external_post_id");--> statement-breakpoint
-- A wallet is bound only with a signed challenge (CONTRACT.md "Limits"): addresses bound before
-- that proof existed are unbound; their owners connect again with a signature (a milestone
-- already paid is not paid twice).
UPDATE "users" SET "wallet_address" = NULL WHERE "wallet_address" IS NOT NULL;
