CREATE TABLE "trail_files" (
	"tenant_id" text NOT NULL,
	"connector_id" text NOT NULL,
	"prefix" text NOT NULL,
	"day" text NOT NULL,
	"key" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"records" integer DEFAULT 0 NOT NULL,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trail_files_connector_id_key_pk" PRIMARY KEY("connector_id","key")
);
--> statement-breakpoint
ALTER TABLE "connectors" ADD COLUMN "events_error" text;--> statement-breakpoint
ALTER TABLE "trail_files" ADD CONSTRAINT "trail_files_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trail_files" ADD CONSTRAINT "trail_files_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trail_files_prefix_idx" ON "trail_files" USING btree ("connector_id","prefix","day");--> statement-breakpoint
CREATE INDEX "trail_files_tenant_idx" ON "trail_files" USING btree ("tenant_id");