CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"institution_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer,
	"ip" text,
	"action" text NOT NULL,
	"subject_kind" text,
	"subject_id" integer,
	"detail" jsonb
);
--> statement-breakpoint
CREATE INDEX "audit_events_institution_at_idx" ON "audit_events" USING btree ("institution_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_subject_idx" ON "audit_events" USING btree ("institution_id","subject_kind","subject_id");--> statement-breakpoint
CREATE INDEX "audit_events_actor_idx" ON "audit_events" USING btree ("institution_id","actor_user_id");--> statement-breakpoint
-- Append-only in the database itself, not only in the app: no UPDATE ever, and DELETE only by the retention
-- sweep, which says so for its own transaction (server/audit/retention.ts).
CREATE FUNCTION audit_events_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('hermes.audit_purge', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events es solo de agregar: % no está permitido', TG_OP;
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_guard();
