-- Substring search ("contains", ILIKE '%x%') served by trigram indexes instead of a scan of
-- every event. The expressions must match the ones in event-repository.ts and
-- event-summary-repository.ts exactly.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "policy_events_resource_search_idx" ON "policy_events" USING gin ((coalesce("resource_name", '') || E'\n' || coalesce("resource_external_id", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "policy_events_principal_search_idx" ON "policy_events" USING gin ((coalesce("user_identifier", '') || E'\n' || coalesce("user_name", '')) gin_trgm_ops);
