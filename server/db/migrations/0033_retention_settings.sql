CREATE TABLE "retention_settings" (
	"institution_id" integer PRIMARY KEY NOT NULL,
	"messages_months" smallint NOT NULL,
	"replies_months" smallint NOT NULL,
	"deliveries_months" smallint NOT NULL,
	"attachments_months" smallint NOT NULL,
	"inbound_months" smallint NOT NULL,
	"audit_months" smallint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_settings_months_check" CHECK (least("retention_settings"."messages_months", "retention_settings"."replies_months", "retention_settings"."deliveries_months", "retention_settings"."attachments_months", "retention_settings"."inbound_months", "retention_settings"."audit_months") >= 12
        and greatest("retention_settings"."messages_months", "retention_settings"."replies_months", "retention_settings"."deliveries_months", "retention_settings"."attachments_months", "retention_settings"."inbound_months", "retention_settings"."audit_months") <= 120)
);
--> statement-breakpoint
ALTER TABLE "retention_settings" ADD CONSTRAINT "retention_settings_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;