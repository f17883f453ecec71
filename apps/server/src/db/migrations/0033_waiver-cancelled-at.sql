ALTER TABLE "waivers" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
-- Waivers cancelled before the column: their last change is the best record of when.
UPDATE "waivers" SET "cancelled_at" = "updated_at" WHERE "status" = 'CANCELLED';
