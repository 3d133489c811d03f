CREATE TABLE "person_blocks" (
	"institution_id" integer NOT NULL,
	"person_kind" text NOT NULL,
	"person_id" integer NOT NULL,
	"blocked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_by" integer,
	"requested_by" text NOT NULL,
	CONSTRAINT "person_blocks_person_kind_person_id_pk" PRIMARY KEY("person_kind","person_id"),
	CONSTRAINT "person_blocks_requested_by_check" CHECK ("person_blocks"."requested_by" in ('persona', 'apoderado', 'representante'))
);
--> statement-breakpoint
ALTER TABLE "guardians" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "staff" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "person_blocks" ADD CONSTRAINT "person_blocks_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_blocks" ADD CONSTRAINT "person_blocks_blocked_by_users_id_fk" FOREIGN KEY ("blocked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;