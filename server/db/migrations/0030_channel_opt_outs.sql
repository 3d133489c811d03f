CREATE TABLE "channel_opt_out_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "channel_opt_out_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel" text NOT NULL,
	"phone" text NOT NULL,
	"kind" text NOT NULL,
	"body" text NOT NULL,
	"provider" text NOT NULL,
	"provider_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "channel_opt_out_events_kind_check" CHECK ("channel_opt_out_events"."kind" in ('out', 'in'))
);
--> statement-breakpoint
CREATE TABLE "channel_opt_outs" (
	"channel" text NOT NULL,
	"phone" text NOT NULL,
	"opted_out_at" timestamp with time zone NOT NULL,
	CONSTRAINT "channel_opt_outs_channel_phone_pk" PRIMARY KEY("channel","phone"),
	CONSTRAINT "channel_opt_outs_channel_check" CHECK ("channel_opt_outs"."channel" in ('sms', 'whatsapp'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "channel_opt_out_events_provider_idx" ON "channel_opt_out_events" USING btree ("provider","provider_id");--> statement-breakpoint
CREATE INDEX "channel_opt_out_events_phone_idx" ON "channel_opt_out_events" USING btree ("channel","phone","at");