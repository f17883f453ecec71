ALTER TABLE "invitation" ADD COLUMN "delivery_status" text;--> statement-breakpoint
ALTER TABLE "invitation" ADD COLUMN "delivery_error" text;