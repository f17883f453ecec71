CREATE TABLE "compliance_observations" (
	"id" text PRIMARY KEY DEFAULT gen_random_uuid()::text NOT NULL,
	"tenant_id" text NOT NULL,
	"bundle_id" text NOT NULL,
	"deployment_id" text NOT NULL,
	"resource_external_id" text NOT NULL,
	"day" text NOT NULL,
	"compliant" boolean NOT NULL,
	"observed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "compliance_observations" ADD CONSTRAINT "compliance_observations_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_observations_day_idx" ON "compliance_observations" USING btree ("deployment_id","resource_external_id","day");--> statement-breakpoint
CREATE INDEX "compliance_observations_bundle_idx" ON "compliance_observations" USING btree ("tenant_id","bundle_id","day");