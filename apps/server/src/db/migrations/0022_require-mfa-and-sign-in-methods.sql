ALTER TABLE "session" ADD COLUMN "sign_in_method" text;--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "sign_in_provider" text;--> statement-breakpoint
ALTER TABLE "sign_in_event" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "tenant_settings" ADD COLUMN "require_mfa" boolean DEFAULT false NOT NULL;