CREATE TABLE "event_principals" (
	"tenant_id" text NOT NULL,
	"user_identifier" text NOT NULL,
	"user_name" text,
	"source_app_identifier" text,
	"source_app_name" text,
	"user_type" text,
	"last_occurred_at" timestamp with time zone NOT NULL,
	CONSTRAINT "event_principals_tenant_id_user_identifier_pk" PRIMARY KEY("tenant_id","user_identifier")
);
--> statement-breakpoint
ALTER TABLE "tenant_settings" ADD COLUMN "event_retention_days" integer DEFAULT 400 NOT NULL;--> statement-breakpoint
ALTER TABLE "event_principals" ADD CONSTRAINT "event_principals_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_principals_search_idx" ON "event_principals" USING gin (("user_identifier" || E'\n' || coalesce("user_name", '')) gin_trgm_ops);