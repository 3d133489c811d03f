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
-- blank number gets no type: no number, no document. The rule is a function of this session only (pg_temp),
-- dropped once both tables are typed. No cast can fail: the RUT's body is digits by its pattern, and the
-- CURP's last character is looked up, not cast.
CREATE FUNCTION pg_temp.hermes_document_type(country text, dni text) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE
    WHEN coalesce(d.compact, '') = '' THEN NULL
    WHEN country = 'CL' AND d.body IS NOT NULL AND d.body::int >= 100000 AND right(d.rut, 1) = (
      SELECT CASE x.s WHEN 11 THEN '0' WHEN 10 THEN 'K' ELSE x.s::text END
      FROM (SELECT 11 - sum(substr(reverse(d.body), n, 1)::int * (2 + (n - 1) % 6)) % 11 AS s FROM generate_series(1, length(d.body)) AS n) AS x
    ) THEN 1
    WHEN country = 'MX'
      AND d.compact ~ '^[A-Z][AEIOUX][A-Z]{2}[0-9]{2}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])[HMX](AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|TC|TS|TL|VZ|YN|ZS|NE)[B-DF-HJ-NP-TV-Z]{3}[0-9A-Z][0-9]$'
      AND position(right(d.compact, 1) in '0123456789') - 1 = (
        SELECT (10 - sum((position(substr(d.compact, n, 1) in '0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ') - 1) * (19 - n)) % 10) % 10
        FROM generate_series(1, 17) AS n
      ) THEN 2
    ELSE 3
  END)::smallint
  FROM (
    SELECT c.compact, c.rut, substring(c.rut from '^([0-9]{1,8})-?[0-9K]$') AS body
    FROM (SELECT upper(regexp_replace(dni, '[[:space:]]', '', 'g')) AS compact, upper(regexp_replace(dni, '[.[:space:]]', '', 'g')) AS rut) AS c
  ) AS d
$$;--> statement-breakpoint
UPDATE "guardians" AS g SET "document_type" = pg_temp.hermes_document_type(i."country", g."dni")
  FROM "institutions" AS i WHERE i."id" = g."institution_id" AND g."dni" IS NOT NULL;--> statement-breakpoint
UPDATE "students" AS s SET "document_type" = pg_temp.hermes_document_type(i."country", s."dni")
  FROM "institutions" AS i WHERE i."id" = s."institution_id" AND s."dni" IS NOT NULL;--> statement-breakpoint
DROP FUNCTION pg_temp.hermes_document_type(text, text);
