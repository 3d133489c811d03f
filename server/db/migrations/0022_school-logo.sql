CREATE TABLE "school_logos" (
	"institution_id" integer PRIMARY KEY NOT NULL,
	"content" "bytea" NOT NULL,
	"content_type" text NOT NULL,
	"hash" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "school_logos_content_type_check" CHECK ("school_logos"."content_type" in ('image/png', 'image/jpeg'))
);
--> statement-breakpoint
ALTER TABLE "school_logos" ADD CONSTRAINT "school_logos_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;