-- Substring search ("contains", ILIKE '%x%') served by trigram indexes instead of a scan of
-- every event. The expression must match resourceSearchText in event-repository.ts exactly.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "policy_events_resource_search_idx" ON "policy_events" USING gin ((coalesce("resource_name", '') || E'\n' || coalesce("resource_external_id", '')) gin_trgm_ops);
