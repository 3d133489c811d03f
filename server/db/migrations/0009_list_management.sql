ALTER TABLE "recipient_list_members" ADD COLUMN "course_id" integer;--> statement-breakpoint
ALTER TABLE "recipient_lists" ADD COLUMN "shared" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "recipient_lists" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "recipient_lists" ADD COLUMN "deleted_by_user_id" integer;--> statement-breakpoint
ALTER TABLE "guardians" ADD COLUMN "document_type" smallint;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "document_type" smallint;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "withdrawn_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "recipient_list_members" ADD CONSTRAINT "recipient_list_members_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipient_lists" ADD CONSTRAINT "recipient_lists_deleted_by_user_id_users_id_fk" FOREIGN KEY ("deleted_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recipient_lists_shared_idx" ON "recipient_lists" USING btree ("institution_id") WHERE "recipient_lists"."shared";--> statement-breakpoint
-- Existing lists were last changed when created; existing members were added in the course their student is in now.
UPDATE "recipient_lists" SET "updated_at" = "created_at";--> statement-breakpoint
UPDATE "recipient_list_members" AS m SET "course_id" = s."course_id"
  FROM "students" AS s WHERE s."id" = coalesce(m."student_id", CASE WHEN m."member_kind" = 'estudiante' THEN m."member_ref_id" END);--> statement-breakpoint
-- A document already on file is the country's national id: RUT in Chile, CURP in Mexico.
UPDATE "guardians" AS g SET "document_type" = CASE i."country" WHEN 'CL' THEN 1 ELSE 2 END
  FROM "institutions" AS i WHERE i."id" = g."institution_id" AND g."dni" IS NOT NULL;--> statement-breakpoint
UPDATE "students" AS s SET "document_type" = CASE i."country" WHEN 'CL' THEN 1 ELSE 2 END
  FROM "institutions" AS i WHERE i."id" = s."institution_id" AND s."dni" IS NOT NULL;
