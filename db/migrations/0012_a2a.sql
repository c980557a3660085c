CREATE TABLE "a2a_payment_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"payer_id" text NOT NULL,
	"recipient_id" text NOT NULL,
	"amount" numeric(30, 8) NOT NULL,
	"service" text NOT NULL,
	"metadata" jsonb,
	"status" text NOT NULL,
	"transaction_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "a2a_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"context_id" text NOT NULL,
	"state" text NOT NULL,
	"method" text NOT NULL,
	"message" jsonb NOT NULL,
	"outcome" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "a2a_payment_requests" ADD CONSTRAINT "a2a_payment_requests_payer_id_users_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_payment_requests" ADD CONSTRAINT "a2a_payment_requests_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_tasks" ADD CONSTRAINT "a2a_tasks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "a2a_payment_requests_payer_idx" ON "a2a_payment_requests" USING btree ("payer_id","created_at");--> statement-breakpoint
CREATE INDEX "a2a_payment_requests_recipient_idx" ON "a2a_payment_requests" USING btree ("recipient_id","created_at");--> statement-breakpoint
CREATE INDEX "a2a_tasks_owner_idx" ON "a2a_tasks" USING btree ("owner_id","created_at");