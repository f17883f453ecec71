-- The identities of the events stored before event_principals existed, each with its newest event's names.
INSERT INTO "event_principals" ("tenant_id", "user_identifier", "user_name", "source_app_identifier", "source_app_name", "user_type", "last_occurred_at")
SELECT DISTINCT ON ("tenant_id", coalesce("user_identifier", ''))
  "tenant_id", coalesce("user_identifier", ''), "user_name", "source_app_identifier", "source_app_name", "user_type", "occurred_at"
FROM "policy_events"
ORDER BY "tenant_id", coalesce("user_identifier", ''), "occurred_at" DESC
ON CONFLICT DO NOTHING;
