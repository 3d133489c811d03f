CREATE TABLE "sms_monthly_limits" (
	"institution_id" integer NOT NULL,
	"month" text NOT NULL,
	"sms_limit" integer NOT NULL,
	CONSTRAINT "sms_monthly_limits_institution_id_month_pk" PRIMARY KEY("institution_id","month")
);
--> statement-breakpoint
ALTER TABLE "institution_quotas" ADD COLUMN "sms_reserve_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "institution_quotas" ADD COLUMN "sms_alert_percent" integer DEFAULT 10;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "emergency" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sms_monthly_limits" ADD CONSTRAINT "sms_monthly_limits_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;