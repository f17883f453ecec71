-- The user filter walks each listed user's events newest first, by identifier and by name, a page
-- from each, instead of gathering every event of the users and sorting them: the user indexes end
-- in (occurred_at, id) as the other filters' do. Replaced rather than added, so ingest keeps as
-- many indexes to update.
DROP INDEX "policy_events_user_identifier_idx";--> statement-breakpoint
DROP INDEX "policy_events_user_name_idx";--> statement-breakpoint
CREATE INDEX "policy_events_user_identifier_idx" ON "policy_events" USING btree ("tenant_id","user_identifier","occurred_at","id");--> statement-breakpoint
CREATE INDEX "policy_events_user_name_idx" ON "policy_events" USING btree ("tenant_id","user_name","occurred_at","id");