ALTER TABLE "message_recipients" ADD COLUMN "reached_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "guardians" ADD COLUMN "sms_phone" text;--> statement-breakpoint
ALTER TABLE "guardians" ADD COLUMN "sms_ok" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "guardians_sms_stale_idx" ON "guardians" USING btree ("institution_id") WHERE "guardians"."phone" is distinct from "guardians"."sms_phone";--> statement-breakpoint
-- Backfill of the roll-up, by the rule refreshRecipients keeps it with (server/delivery/status.ts).
UPDATE "message_recipients" r SET "reached_at" = x.reached_at
FROM (
  SELECT recipient_id, min(least(delivered_at, read_at)) AS reached_at
  FROM deliveries WHERE status IN ('received', 'read') GROUP BY recipient_id
) x
WHERE r.id = x.recipient_id;
-- guardians.sms_ok is not backfilled here: the verdict is libphonenumber's (server/delivery/phone.ts), so
-- the rows are settled by server/delivery/sms-phones.ts (sms_phone null = not checked yet).
