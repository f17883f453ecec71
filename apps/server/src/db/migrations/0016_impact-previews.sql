CREATE TABLE "impact_previews" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"tenant_id" text NOT NULL,
	"cache_key" text NOT NULL,
	"policy_slug" text NOT NULL,
	"provider" text NOT NULL,
	"connector_id" text NOT NULL,
	"parameters" jsonb NOT NULL,
	"scopes" jsonb NOT NULL,
	"excluded_scopes" jsonb NOT NULL,
	"period_days" integer NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"pages_read" integer DEFAULT 0 NOT NULL,
	"records_evaluated" integer DEFAULT 0 NOT NULL,
	"period_start" timestamp with time zone,
	"period_end" timestamp with time zone,
	"result" jsonb,
	"error" text,
	"created_by" text,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "impact_previews" ADD CONSTRAINT "impact_previews_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "impact_previews_tenant_key_idx" ON "impact_previews" USING btree ("tenant_id","cache_key");--> statement-breakpoint
CREATE INDEX "impact_previews_tenant_created_idx" ON "impact_previews" USING btree ("tenant_id","created_at");