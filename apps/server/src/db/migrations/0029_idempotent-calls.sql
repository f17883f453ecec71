CREATE TABLE "idempotent_calls" (
	"tenant_id" text NOT NULL,
	"caller_id" text NOT NULL,
	"procedure" text NOT NULL,
	"key" text NOT NULL,
	"request_digest" text NOT NULL,
	"response" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotent_calls_tenant_id_caller_id_procedure_key_pk" PRIMARY KEY("tenant_id","caller_id","procedure","key")
);
--> statement-breakpoint
ALTER TABLE "idempotent_calls" ADD CONSTRAINT "idempotent_calls_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotent_calls_created_idx" ON "idempotent_calls" USING btree ("tenant_id","created_at");