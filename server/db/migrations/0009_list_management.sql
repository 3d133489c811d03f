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
-- Existing lists were last changed when created; one already in the trash was put there by its owner (before
-- sharing only the owner saw a list). Existing members were added in the course their student is in now,
-- a student of the list's own school (a stale row naming another school's student gets no course).
UPDATE "recipient_lists" SET "updated_at" = "created_at",
  "deleted_by_user_id" = CASE WHEN "deleted_at" IS NOT NULL THEN "owner_user_id" END;--> statement-breakpoint
UPDATE "recipient_list_members" AS m SET "course_id" = s."course_id"
  FROM "recipient_lists" AS l, "students" AS s
  WHERE l."id" = m."list_id" AND s."institution_id" = l."institution_id"
    AND s."id" = coalesce(m."student_id", CASE WHEN m."member_kind" = 'estudiante' THEN m."member_ref_id" END);--> statement-breakpoint
-- A document already on file is typed by what it is, as shared/person-rules.ts checks them: a RUT whose check
-- digit is right in Chile, a CURP whose check digit is right in Mexico, anything else (a passport, an IPE, a
-- mistyped number) "otro", so editing that person's phone is not refused over a number nobody touched. A
-- blank number gets no type: no number, no document.
WITH "docs" AS (
  SELECT g."id", i."country", upper(regexp_replace(g."dni", '[.[:space:]]', '', 'g')) AS "rut", upper(regexp_replace(g."dni", '[[:space:]]', '', 'g')) AS "curp"
  FROM "guardians" AS g JOIN "institutions" AS i ON i."id" = g."institution_id"
  WHERE regexp_replace(g."dni", '[[:space:]]', '', 'g') <> ''
), "parts" AS (
  SELECT "id", "country", "rut", "curp", substring("rut" from '^([0-9]{1,8})-?[0-9K]$') AS "body" FROM "docs"
)
UPDATE "guardians" AS g SET "document_type" = CASE
    -- Nested CASEs: the casts run only on what the patterns let through (AND has no order of evaluation).
    WHEN p."country" = 'CL' AND p."body" IS NOT NULL THEN CASE WHEN p."body"::int >= 100000 AND right(p."rut", 1) = (
      SELECT CASE x."d" WHEN 11 THEN '0' WHEN 10 THEN 'K' ELSE x."d"::text END
      FROM (SELECT 11 - sum(substr(reverse(p."body"), n, 1)::int * (2 + (n - 1) % 6)) % 11 AS "d" FROM generate_series(1, length(p."body")) AS n) AS x
    ) THEN 1 ELSE 3 END
    WHEN p."country" = 'MX'
      AND p."curp" ~ '^[A-Z][AEIOUX][A-Z]{2}[0-9]{2}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])[HMX](AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z][0-9]$'
      THEN CASE WHEN right(p."curp", 1)::int = (
        SELECT (10 - sum((position(substr(p."curp", n, 1) in '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ') - 1) * (19 - n)) % 10) % 10
        FROM generate_series(1, 17) AS n
      ) THEN 2 ELSE 3 END
    ELSE 3
  END
  FROM "parts" AS p WHERE p."id" = g."id";--> statement-breakpoint
WITH "docs" AS (
  SELECT s."id", i."country", upper(regexp_replace(s."dni", '[.[:space:]]', '', 'g')) AS "rut", upper(regexp_replace(s."dni", '[[:space:]]', '', 'g')) AS "curp"
  FROM "students" AS s JOIN "institutions" AS i ON i."id" = s."institution_id"
  WHERE regexp_replace(s."dni", '[[:space:]]', '', 'g') <> ''
), "parts" AS (
  SELECT "id", "country", "rut", "curp", substring("rut" from '^([0-9]{1,8})-?[0-9K]$') AS "body" FROM "docs"
)
UPDATE "students" AS s SET "document_type" = CASE
    -- Nested CASEs: the casts run only on what the patterns let through (AND has no order of evaluation).
    WHEN p."country" = 'CL' AND p."body" IS NOT NULL THEN CASE WHEN p."body"::int >= 100000 AND right(p."rut", 1) = (
      SELECT CASE x."d" WHEN 11 THEN '0' WHEN 10 THEN 'K' ELSE x."d"::text END
      FROM (SELECT 11 - sum(substr(reverse(p."body"), n, 1)::int * (2 + (n - 1) % 6)) % 11 AS "d" FROM generate_series(1, length(p."body")) AS n) AS x
    ) THEN 1 ELSE 3 END
    WHEN p."country" = 'MX'
      AND p."curp" ~ '^[A-Z][AEIOUX][A-Z]{2}[0-9]{2}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])[HMX](AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z][0-9]$'
      THEN CASE WHEN right(p."curp", 1)::int = (
        SELECT (10 - sum((position(substr(p."curp", n, 1) in '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ') - 1) * (19 - n)) % 10) % 10
        FROM generate_series(1, 17) AS n
      ) THEN 2 ELSE 3 END
    ELSE 3
  END
  FROM "parts" AS p WHERE p."id" = s."id";
