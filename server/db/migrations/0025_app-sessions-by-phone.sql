ALTER TABLE "app_tokens" ADD COLUMN "phone" text;--> statement-breakpoint
CREATE INDEX "guardians_phone_idx" ON "guardians" USING btree ("phone");--> statement-breakpoint
-- Sessions already open signed in with their guardian's phone: they reach that phone's other schools too.
UPDATE "app_tokens" t SET "phone" = g."phone" FROM "guardians" g WHERE t."person_kind" = 'apoderado' AND g."id" = t."person_id";
