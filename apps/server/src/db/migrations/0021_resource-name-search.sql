-- The resource-name search ("contains") finds the matching resources in resource_events (one row
-- per resource) and then walks each resource's events newest first, instead of a trigram index
-- over every event. The expression must match resourceSearchText in event-repository.ts exactly.
DROP INDEX "policy_events_resource_idx";--> statement-breakpoint
DROP INDEX IF EXISTS "policy_events_resource_search_idx";--> statement-breakpoint
CREATE INDEX "policy_events_resource_time_idx" ON "policy_events" USING btree ("tenant_id","resource_external_id","occurred_at","id");--> statement-breakpoint
CREATE INDEX "resource_events_search_idx" ON "resource_events" USING gin ((coalesce("resource_name", '') || E'\n' || coalesce("resource_external_id", '')) gin_trgm_ops);
