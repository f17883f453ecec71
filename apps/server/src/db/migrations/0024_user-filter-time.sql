-- The user filter walks each listed user's events newest first, by identifier and by name, a page
-- from each, instead of gathering every event of the users and sorting them: the user indexes end
-- in occurred_at (events of one user at the same instant are few, and sorted by id as they are
-- read). Replaced rather than added, so ingest keeps as many indexes to update; without the id
-- they cost each ingested event about as much as the ones they replace.
DROP INDEX "policy_events_user_identifier_idx";--> statement-breakpoint
DROP INDEX "policy_events_user_name_idx";--> statement-breakpoint
CREATE INDEX "policy_events_user_identifier_idx" ON "policy_events" USING btree ("tenant_id","user_identifier","occurred_at");--> statement-breakpoint
CREATE INDEX "policy_events_user_name_idx" ON "policy_events" USING btree ("tenant_id","user_name","occurred_at");