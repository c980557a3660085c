CREATE TABLE "a2a_push_configs" (
	"id" text PRIMARY KEY NOT NULL,
	"config_id" text NOT NULL,
	"task_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"api_key_id" text,
	"url" text NOT NULL,
	"token" text,
	"authentication" jsonb,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "a2a_push_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"config_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"body" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "a2a_tasks" ADD COLUMN "order_id" text;--> statement-breakpoint
ALTER TABLE "a2a_push_configs" ADD CONSTRAINT "a2a_push_configs_task_id_a2a_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."a2a_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_push_configs" ADD CONSTRAINT "a2a_push_configs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a2a_push_deliveries" ADD CONSTRAINT "a2a_push_deliveries_config_id_a2a_push_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."a2a_push_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "a2a_push_configs_task_config_idx" ON "a2a_push_configs" USING btree ("task_id","config_id");--> statement-breakpoint
CREATE INDEX "a2a_push_configs_owner_idx" ON "a2a_push_configs" USING btree ("owner_id","api_key_id");--> statement-breakpoint
CREATE INDEX "a2a_push_deliveries_due_idx" ON "a2a_push_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "a2a_push_deliveries_owner_idx" ON "a2a_push_deliveries" USING btree ("owner_id","created_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "a2a_push_deliveries_finished_idx" ON "a2a_push_deliveries" USING btree ("finished_at");--> statement-breakpoint
CREATE INDEX "a2a_tasks_order_idx" ON "a2a_tasks" USING btree ("order_id") WHERE order_id is not null;