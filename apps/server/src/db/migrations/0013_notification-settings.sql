CREATE TABLE "chat_nonces" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_deliveries" (
	"tenant_id" text NOT NULL,
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_deliveries_tenant_id_channel_pk" PRIMARY KEY("tenant_id","channel")
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"on_waiver_pending" boolean DEFAULT true NOT NULL,
	"on_waiver_decided" boolean DEFAULT true NOT NULL,
	"on_waiver_expiring" boolean DEFAULT true NOT NULL,
	"on_deployment_failed" boolean DEFAULT true NOT NULL,
	"email_enabled" boolean DEFAULT false NOT NULL,
	"slack_enabled" boolean DEFAULT false NOT NULL,
	"teams_enabled" boolean DEFAULT false NOT NULL,
	"slack_webhook_url" text,
	"slack_signing_secret" text,
	"slack_bot_token" text,
	"teams_webhook_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_nonces" ADD CONSTRAINT "chat_nonces_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_deliveries" ADD CONSTRAINT "notification_deliveries_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_nonces_expires_idx" ON "chat_nonces" USING btree ("expires_at");