CREATE TABLE "request_counts" (
	"tenant_id" text NOT NULL,
	"connector_id" text NOT NULL,
	"day" date NOT NULL,
	"request_key" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "request_counts_tenant_id_connector_id_day_request_key_pk" PRIMARY KEY("tenant_id","connector_id","day","request_key")
);
--> statement-breakpoint
CREATE TABLE "request_shapes" (
	"tenant_id" text NOT NULL,
	"connector_id" text NOT NULL,
	"request_key" text NOT NULL,
	"refused" boolean NOT NULL,
	"account" text NOT NULL,
	"action" text NOT NULL,
	"request" text NOT NULL,
	"last_event_id" text NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "request_shapes_tenant_id_connector_id_request_key_pk" PRIMARY KEY("tenant_id","connector_id","request_key")
);
--> statement-breakpoint
ALTER TABLE "request_counts" ADD CONSTRAINT "request_counts_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_counts" ADD CONSTRAINT "request_counts_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_shapes" ADD CONSTRAINT "request_shapes_tenant_id_organization_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."organization"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "request_shapes" ADD CONSTRAINT "request_shapes_connector_id_connectors_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("id") ON DELETE cascade ON UPDATE no action;