CREATE TABLE "sign_in_event" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"method" text NOT NULL,
	"success" boolean NOT NULL,
	"failure_reason" text,
	"ip_address" text,
	"user_agent" text
);
--> statement-breakpoint
ALTER TABLE "sign_in_event" ADD CONSTRAINT "sign_in_event_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_event_user_occurred_idx" ON "sign_in_event" USING btree ("user_id","occurred_at");