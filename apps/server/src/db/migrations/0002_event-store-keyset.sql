DROP INDEX "policy_events_tenant_occurred_idx";--> statement-breakpoint
DROP INDEX "policy_events_tenant_type_occurred_idx";--> statement-breakpoint
DROP INDEX "policy_events_bundle_idx";--> statement-breakpoint
DROP INDEX "resource_events_tenant_idx";--> statement-breakpoint
ALTER TABLE "policy_events" ADD COLUMN "is_dismissed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "resource_events" ADD COLUMN "last_event_id" text;--> statement-breakpoint
CREATE INDEX "policy_events_resource_idx" ON "policy_events" USING btree ("tenant_id","deployment_id","resource_external_id");--> statement-breakpoint
CREATE INDEX "policy_events_tenant_occurred_idx" ON "policy_events" USING btree ("tenant_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "policy_events_tenant_type_occurred_idx" ON "policy_events" USING btree ("tenant_id","type","occurred_at","id");--> statement-breakpoint
CREATE INDEX "policy_events_bundle_idx" ON "policy_events" USING btree ("bundle_id","occurred_at");--> statement-breakpoint
CREATE INDEX "resource_events_tenant_idx" ON "resource_events" USING btree ("tenant_id","last_occurred_at","id");