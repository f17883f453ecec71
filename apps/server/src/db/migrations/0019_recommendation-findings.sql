ALTER TABLE "recommendations" ADD COLUMN "kind" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "recommendations" ADD COLUMN "finding_key" text;--> statement-breakpoint
ALTER TABLE "recommendations" ADD COLUMN "scopes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "recommendations" ADD COLUMN "mode" text DEFAULT 'ALERT' NOT NULL;--> statement-breakpoint
ALTER TABLE "recommendations" ADD COLUMN "score" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "recommendations" ADD COLUMN "affected_resources_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "recommendations" ADD COLUMN "installed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recommendations" ADD COLUMN "installed_bundle_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "recommendations_tenant_finding_idx" ON "recommendations" USING btree ("tenant_id","finding_key");