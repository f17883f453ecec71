ALTER TABLE "waivers" ADD COLUMN "principal_arn" text;--> statement-breakpoint
ALTER TABLE "waivers" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
CREATE INDEX "waivers_status_expires_idx" ON "waivers" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "waivers_idempotency_idx" ON "waivers" USING btree ("requester_identifier","idempotency_key");