ALTER TABLE "bundles" ADD COLUMN "managed_by" jsonb;--> statement-breakpoint
ALTER TABLE "waivers" ADD COLUMN "ticket_reference" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "waivers" ADD COLUMN "managed_by" jsonb;