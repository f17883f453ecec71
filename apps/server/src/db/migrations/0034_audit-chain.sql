CREATE TABLE "audit_chain_heads" (
	"tenant_id" text PRIMARY KEY NOT NULL,
	"sequence" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "details" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "details" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "created_at" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "sequence" bigint;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_source" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "target_name" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "before" jsonb;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "after" jsonb;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "previous_hash" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "hash" text;--> statement-breakpoint
-- Records written before the chain keep their content (details become "after"), are numbered in
-- the order they were written, and are left unsealed (empty hashes): the server seals them into
-- each tenant's chain at start-up.
UPDATE "audit_log" SET "after" = "details", "previous_hash" = '', "hash" = '', "sequence" = n.seq
  FROM (SELECT "id", row_number() OVER (PARTITION BY "tenant_id" ORDER BY "created_at", "id") AS seq FROM "audit_log") n
  WHERE n."id" = "audit_log"."id";--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "sequence" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "previous_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_settings" ADD COLUMN "audit_retention_days" integer DEFAULT 400 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_chain_heads" ADD CONSTRAINT "audit_chain_heads_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_tenant_sequence_idx" ON "audit_log" USING btree ("tenant_id","sequence");
