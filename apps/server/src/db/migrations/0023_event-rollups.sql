CREATE TABLE "event_day_counts" (
	"tenant_id" text NOT NULL,
	"day" date NOT NULL,
	"bundle_id" text NOT NULL,
	"deployment_name" text NOT NULL,
	"cloud_provider" text NOT NULL,
	"resource_native_type" text NOT NULL,
	"type" text NOT NULL,
	"is_dismissed" boolean NOT NULL,
	"archived" boolean NOT NULL,
	"events" integer NOT NULL,
	CONSTRAINT "event_day_counts_pkey" PRIMARY KEY("tenant_id","day","bundle_id","deployment_name","cloud_provider","resource_native_type","type","is_dismissed","archived")
);
--> statement-breakpoint
ALTER TABLE "event_day_counts" ADD CONSTRAINT "event_day_counts_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The events stored before the day counts existed, counted as addToDayCounts (event-day-counts.ts) counts new ones.
INSERT INTO "event_day_counts" ("tenant_id", "day", "bundle_id", "deployment_name", "cloud_provider", "resource_native_type", "type", "is_dismissed", "archived", "events")
SELECT "tenant_id", ("occurred_at" AT TIME ZONE 'UTC')::date, coalesce("bundle_id", ''), coalesce("deployment_name", ''), "cloud_provider", coalesce("resource_native_type", ''), "type", "is_dismissed", "archived", count(*)
FROM "policy_events"
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
