ALTER TABLE "bundles" ADD COLUMN "propagation_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "deployments" ADD COLUMN "propagation_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "waivers" ADD COLUMN "propagation_ends_at" timestamp with time zone;