DROP INDEX "policy_events_bundle_idx";--> statement-breakpoint
CREATE INDEX "policy_events_policy_name_idx" ON "policy_events" USING btree ("tenant_id","deployment_name","occurred_at","id");--> statement-breakpoint
CREATE INDEX "policy_events_resource_type_idx" ON "policy_events" USING btree ("tenant_id","resource_native_type","occurred_at","id");--> statement-breakpoint
CREATE INDEX "policy_events_user_identifier_idx" ON "policy_events" USING btree ("tenant_id","user_identifier");--> statement-breakpoint
CREATE INDEX "policy_events_user_name_idx" ON "policy_events" USING btree ("tenant_id","user_name");--> statement-breakpoint
CREATE INDEX "policy_events_scope_idx" ON "policy_events" USING btree ("tenant_id",lower("resource_scope"));--> statement-breakpoint
CREATE INDEX "policy_events_bundle_idx" ON "policy_events" USING btree ("tenant_id","bundle_id","occurred_at","id");