ALTER TABLE "user" ADD COLUMN "instance_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_settings" ADD COLUMN "waiver_requester_domains" text[] DEFAULT '{}' NOT NULL;