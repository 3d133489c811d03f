ALTER TABLE "app_tokens" ADD COLUMN "phone" text;--> statement-breakpoint
CREATE INDEX "guardians_phone_idx" ON "guardians" USING btree ("phone");
