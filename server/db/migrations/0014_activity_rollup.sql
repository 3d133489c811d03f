CREATE TABLE "activity_days" (
	"institution_id" integer NOT NULL,
	"day" date NOT NULL,
	"author_user_id" integer NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"deliveries" integer DEFAULT 0 NOT NULL,
	"app_known" integer DEFAULT 0 NOT NULL,
	"app_read" integer DEFAULT 0 NOT NULL,
	"inbox_known" integer DEFAULT 0 NOT NULL,
	"inbox_read" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_days_pk" PRIMARY KEY("institution_id","day","author_user_id")
);
--> statement-breakpoint
CREATE TABLE "activity_guardians" (
	"institution_id" integer NOT NULL,
	"school_year" smallint NOT NULL,
	"guardian_id" integer NOT NULL,
	"addressed" integer DEFAULT 0 NOT NULL,
	"reached" integer DEFAULT 0 NOT NULL,
	"read" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_guardians_pk" PRIMARY KEY("institution_id","school_year","guardian_id")
);
--> statement-breakpoint
CREATE TABLE "activity_messages" (
	"message_id" integer PRIMARY KEY NOT NULL,
	"institution_id" integer NOT NULL,
	"author_user_id" integer,
	"day" date,
	"school_year" smallint,
	"counted" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_reach" (
	"institution_id" integer NOT NULL,
	"school_year" smallint NOT NULL,
	"author_user_id" integer NOT NULL,
	"recipient_kind" text NOT NULL,
	"recipient_ref_id" integer NOT NULL,
	"addressed" integer DEFAULT 0 NOT NULL,
	"reached" integer DEFAULT 0 NOT NULL,
	"read" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_reach_pk" PRIMARY KEY("institution_id","school_year","author_user_id","recipient_kind","recipient_ref_id")
);
--> statement-breakpoint
ALTER TABLE "activity_days" ADD CONSTRAINT "activity_days_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_guardians" ADD CONSTRAINT "activity_guardians_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_messages" ADD CONSTRAINT "activity_messages_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_reach" ADD CONSTRAINT "activity_reach_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_messages_institution_idx" ON "activity_messages" USING btree ("institution_id");--> statement-breakpoint
-- The school year (shared/school-year.ts SCHOOL_YEAR) of a local day: Chile March–December (January and
-- February in none), Mexico August–July, labelled by the year it starts.
CREATE FUNCTION activity_school_year(p_country text, p_day date) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT (CASE
    WHEN p_country = 'MX' THEN CASE WHEN extract(month FROM p_day) >= 8 THEN extract(year FROM p_day) ELSE extract(year FROM p_day) - 1 END
    ELSE CASE WHEN extract(month FROM p_day) >= 3 THEN extract(year FROM p_day) END
  END)::smallint
$$;
--> statement-breakpoint
-- Adds `p_sign` × the whole contribution of message `p_message` (its recipients, deliveries and colleagues'
-- entries as they are now) under the key given. Rows locked in key order: the day's row, then the people.
CREATE FUNCTION activity_contribute(p_message integer, p_institution integer, p_author integer, p_day date, p_year smallint, p_sign integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_days AS a (institution_id, day, author_user_id, messages, deliveries, app_known, app_read, inbox_known, inbox_read)
  SELECT p_institution, p_day, p_author, p_sign,
    p_sign * (SELECT count(*) FROM deliveries d WHERE d.message_id = p_message AND d.address IS NOT NULL),
    p_sign * (SELECT count(*) FROM deliveries d WHERE d.message_id = p_message AND d.address IS NOT NULL AND d.channel = 'app-mobile'),
    p_sign * (SELECT count(*) FROM deliveries d WHERE d.message_id = p_message AND d.address IS NOT NULL AND d.channel = 'app-mobile' AND d.status = 'read'),
    p_sign * (SELECT count(*) FROM mailbox_entries e WHERE e.message_id = p_message AND e.user_id <> p_author AND coalesce(e.deleted_from, e.folder) = 'inbox'),
    p_sign * (SELECT count(*) FROM mailbox_entries e WHERE e.message_id = p_message AND e.user_id <> p_author AND coalesce(e.deleted_from, e.folder) = 'inbox' AND e.read_at IS NOT NULL)
  WHERE EXISTS (SELECT 1 FROM institutions i WHERE i.id = p_institution)
  ON CONFLICT (institution_id, day, author_user_id) DO UPDATE SET
    messages = a.messages + excluded.messages, deliveries = a.deliveries + excluded.deliveries,
    app_known = a.app_known + excluded.app_known, app_read = a.app_read + excluded.app_read,
    inbox_known = a.inbox_known + excluded.inbox_known, inbox_read = a.inbox_read + excluded.inbox_read;
  IF p_year IS NOT NULL THEN
    INSERT INTO activity_reach AS a (institution_id, school_year, author_user_id, recipient_kind, recipient_ref_id, addressed, reached, read)
    SELECT p_institution, p_year, p_author, r.recipient_kind, r.recipient_ref_id, p_sign * count(*),
      p_sign * count(*) FILTER (WHERE r.status IN ('received', 'read')), p_sign * count(*) FILTER (WHERE r.status = 'read')
    FROM message_recipients r
    WHERE r.message_id = p_message AND EXISTS (SELECT 1 FROM institutions i WHERE i.id = p_institution)
    GROUP BY r.recipient_kind, r.recipient_ref_id
    ORDER BY r.recipient_kind, r.recipient_ref_id
    ON CONFLICT (institution_id, school_year, author_user_id, recipient_kind, recipient_ref_id) DO UPDATE SET
      addressed = a.addressed + excluded.addressed, reached = a.reached + excluded.reached, read = a.read + excluded.read;
    INSERT INTO activity_guardians AS a (institution_id, school_year, guardian_id, addressed, reached, read)
    SELECT p_institution, p_year, r.recipient_ref_id, p_sign * count(*),
      p_sign * count(*) FILTER (WHERE r.status IN ('received', 'read')), p_sign * count(*) FILTER (WHERE r.status = 'read')
    FROM message_recipients r
    WHERE r.message_id = p_message AND r.recipient_kind = 'apoderado' AND EXISTS (SELECT 1 FROM institutions i WHERE i.id = p_institution)
    GROUP BY r.recipient_ref_id
    ORDER BY r.recipient_ref_id
    ON CONFLICT (institution_id, school_year, guardian_id) DO UPDATE SET
      addressed = a.addressed + excluded.addressed, reached = a.reached + excluded.reached, read = a.read + excluded.read;
  END IF;
END $$;
--> statement-breakpoint
-- Re-reads the key of each message (server/dashboard/period.ts staffMessagesSql and isAuthorCopy say what
-- counts) and, where it changed, moves its whole contribution from the old key to the new one.
CREATE FUNCTION activity_refresh(p_messages integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  k record;
BEGIN
  FOR k IN
    SELECT ids.id, am.message_id IS NOT NULL AS known, am.institution_id AS old_inst, am.author_user_id AS old_author,
      am.day AS old_day, am.school_year AS old_year, coalesce(am.counted, false) AS old_counted,
      m.id IS NOT NULL AS present, m.institution_id AS new_inst, m.author_user_id AS new_author, local.day AS new_day,
      activity_school_year(i.country, local.day) AS new_year,
      coalesce(m.kind = 'sent' AND m.author_user_id IS NOT NULL AND m.sent_at IS NOT NULL AND NOT (
        m.copy_to_sender AND m.sender_kind = 'funcionario'
        AND EXISTS (SELECT 1 FROM message_recipients r WHERE r.message_id = m.id AND r.recipient_kind = 'funcionario' AND r.recipient_ref_id = m.sender_ref_id)
        AND NOT EXISTS (SELECT 1 FROM message_recipients r WHERE r.message_id = m.id AND (r.recipient_kind <> 'funcionario' OR r.recipient_ref_id <> m.sender_ref_id))), false) AS new_counted
    FROM (SELECT DISTINCT unnest(p_messages) AS id ORDER BY 1) ids
    LEFT JOIN activity_messages am ON am.message_id = ids.id
    LEFT JOIN messages m ON m.id = ids.id
    LEFT JOIN institutions i ON i.id = m.institution_id
    LEFT JOIN LATERAL (SELECT (m.sent_at AT TIME ZONE i.timezone)::date AS day) local ON true
  LOOP
    IF k.known AND k.present AND k.old_counted = k.new_counted AND k.old_inst = k.new_inst
      AND k.old_author IS NOT DISTINCT FROM k.new_author AND k.old_day IS NOT DISTINCT FROM k.new_day
      AND k.old_year IS NOT DISTINCT FROM k.new_year THEN
      CONTINUE;
    END IF;
    IF NOT k.present THEN
      -- Deleted: only the message itself goes here. Its recipients', deliveries' and entries' own delete
      -- triggers subtract them under the key, which therefore stays (a cascade's statement triggers may fire
      -- after this one).
      IF k.old_counted THEN
        UPDATE activity_days SET messages = messages - 1
        WHERE institution_id = k.old_inst AND day = k.old_day AND author_user_id = k.old_author;
      END IF;
      CONTINUE;
    END IF;
    IF k.old_counted THEN
      PERFORM activity_contribute(k.id, k.old_inst, k.old_author, k.old_day, k.old_year, -1);
    END IF;
    IF k.new_counted THEN
      PERFORM activity_contribute(k.id, k.new_inst, k.new_author, k.new_day, k.new_year, 1);
    END IF;
    INSERT INTO activity_messages (message_id, institution_id, author_user_id, day, school_year, counted)
    VALUES (k.id, k.new_inst, k.new_author, k.new_day, k.new_year, k.new_counted)
    ON CONFLICT (message_id) DO UPDATE SET institution_id = excluded.institution_id, author_user_id = excluded.author_user_id,
      day = excluded.day, school_year = excluded.school_year, counted = excluded.counted;
  END LOOP;
END $$;
--> statement-breakpoint
CREATE FUNCTION activity_messages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM activity_refresh(ARRAY[coalesce(NEW.id, OLD.id)]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_messages_changed AFTER INSERT OR DELETE OR UPDATE OF kind, sent_at, author_user_id, institution_id, copy_to_sender, sender_kind, sender_ref_id
  ON messages FOR EACH ROW EXECUTE FUNCTION activity_messages_changed();
--> statement-breakpoint
-- Adds signed per-recipient deltas ({m: message, k: kind, r: ref, s: status, n: ±1}) to the people's counts
-- under each message's key; the day's row is locked first (a delivery outcome locks it before its
-- recipient's people row), then the people in key order.
CREATE FUNCTION activity_reach_delta(p_rows jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM activity_days a
    JOIN (SELECT DISTINCT am.institution_id, am.day, am.author_user_id
          FROM jsonb_to_recordset(p_rows) AS x(m integer) JOIN activity_messages am ON am.message_id = x.m AND am.counted) k
      ON a.institution_id = k.institution_id AND a.day = k.day AND a.author_user_id = k.author_user_id
    ORDER BY a.institution_id, a.day, a.author_user_id FOR UPDATE OF a;
  INSERT INTO activity_reach AS a (institution_id, school_year, author_user_id, recipient_kind, recipient_ref_id, addressed, reached, read)
  SELECT am.institution_id, am.school_year, am.author_user_id, x.k, x.r, sum(x.n),
    coalesce(sum(x.n) FILTER (WHERE x.s IN ('received', 'read')), 0), coalesce(sum(x.n) FILTER (WHERE x.s = 'read'), 0)
  FROM jsonb_to_recordset(p_rows) AS x(m integer, k text, r integer, s text, n integer)
  JOIN activity_messages am ON am.message_id = x.m AND am.counted AND am.school_year IS NOT NULL
  GROUP BY am.institution_id, am.school_year, am.author_user_id, x.k, x.r
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (institution_id, school_year, author_user_id, recipient_kind, recipient_ref_id) DO UPDATE SET
    addressed = a.addressed + excluded.addressed, reached = a.reached + excluded.reached, read = a.read + excluded.read;
  INSERT INTO activity_guardians AS a (institution_id, school_year, guardian_id, addressed, reached, read)
  SELECT am.institution_id, am.school_year, x.r, sum(x.n),
    coalesce(sum(x.n) FILTER (WHERE x.s IN ('received', 'read')), 0), coalesce(sum(x.n) FILTER (WHERE x.s = 'read'), 0)
  FROM jsonb_to_recordset(p_rows) AS x(m integer, k text, r integer, s text, n integer)
  JOIN activity_messages am ON am.message_id = x.m AND am.counted AND am.school_year IS NOT NULL
  WHERE x.k = 'apoderado'
  GROUP BY am.institution_id, am.school_year, x.r
  ORDER BY 1, 2, 3
  ON CONFLICT (institution_id, school_year, guardian_id) DO UPDATE SET
    addressed = a.addressed + excluded.addressed, reached = a.reached + excluded.reached, read = a.read + excluded.read;
END $$;
--> statement-breakpoint
-- Recipients: the people's counts, then the key of messages that might be the author's copy (a copy is told
-- by its recipients: server/dashboard/period.ts isAuthorCopy).
CREATE FUNCTION activity_recipients_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    changed := (SELECT jsonb_agg(jsonb_build_object('m', message_id, 'k', recipient_kind, 'r', recipient_ref_id, 's', status, 'n', 1)) FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    changed := (SELECT jsonb_agg(jsonb_build_object('m', message_id, 'k', recipient_kind, 'r', recipient_ref_id, 's', status, 'n', -1)) FROM old_rows);
  ELSE
    changed := jsonb_build_array(
      jsonb_build_object('m', NEW.message_id, 'k', NEW.recipient_kind, 'r', NEW.recipient_ref_id, 's', NEW.status, 'n', 1),
      jsonb_build_object('m', OLD.message_id, 'k', OLD.recipient_kind, 'r', OLD.recipient_ref_id, 's', OLD.status, 'n', -1));
  END IF;
  IF changed IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM activity_reach_delta(changed);
  IF TG_OP <> 'UPDATE' THEN
    PERFORM activity_refresh(array_agg(DISTINCT m.id)) FROM jsonb_to_recordset(changed) AS x(m integer)
      JOIN messages m ON m.id = x.m AND m.copy_to_sender HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_recipients_inserted AFTER INSERT ON message_recipients REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_recipients_changed();
--> statement-breakpoint
CREATE TRIGGER activity_recipients_deleted AFTER DELETE ON message_recipients REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_recipients_changed();
--> statement-breakpoint
CREATE TRIGGER activity_recipients_updated AFTER UPDATE OF message_id, recipient_kind, recipient_ref_id, status ON message_recipients
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.recipient_kind IS DISTINCT FROM NEW.recipient_kind
    OR OLD.recipient_ref_id IS DISTINCT FROM NEW.recipient_ref_id OR OLD.message_id IS DISTINCT FROM NEW.message_id)
  EXECUTE FUNCTION activity_recipients_changed();
--> statement-breakpoint
-- Adds signed per-row deltas of deliveries and colleagues' entries ({m, d, ak, ar, ik, ir}) to the day's
-- counts under each message's key.
CREATE FUNCTION activity_days_delta(p_rows jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO activity_days AS a (institution_id, day, author_user_id, deliveries, app_known, app_read, inbox_known, inbox_read)
  SELECT am.institution_id, am.day, am.author_user_id, sum(x.d), sum(x.ak), sum(x.ar), sum(x.ik), sum(x.ir)
  FROM jsonb_to_recordset(p_rows) AS x(m integer, d integer, ak integer, ar integer, ik integer, ir integer)
  JOIN activity_messages am ON am.message_id = x.m AND am.counted
  GROUP BY am.institution_id, am.day, am.author_user_id
  ORDER BY 1, 2, 3
  ON CONFLICT (institution_id, day, author_user_id) DO UPDATE SET
    deliveries = a.deliveries + excluded.deliveries, app_known = a.app_known + excluded.app_known, app_read = a.app_read + excluded.app_read,
    inbox_known = a.inbox_known + excluded.inbox_known, inbox_read = a.inbox_read + excluded.inbox_read
$$;
--> statement-breakpoint
CREATE FUNCTION activity_delivery_row(d deliveries, n integer) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('m', d.message_id, 'd', n * (d.address IS NOT NULL)::int,
    'ak', n * (d.address IS NOT NULL AND d.channel = 'app-mobile')::int,
    'ar', n * (d.address IS NOT NULL AND d.channel = 'app-mobile' AND d.status = 'read')::int, 'ik', 0, 'ir', 0)
$$;
--> statement-breakpoint
CREATE FUNCTION activity_deliveries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM activity_days_delta(jsonb_agg(activity_delivery_row(r, 1))) FROM new_rows r WHERE r.address IS NOT NULL HAVING count(*) > 0;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM activity_days_delta(jsonb_agg(activity_delivery_row(r, -1))) FROM old_rows r WHERE r.address IS NOT NULL HAVING count(*) > 0;
  ELSE
    PERFORM activity_days_delta(jsonb_build_array(activity_delivery_row(NEW, 1), activity_delivery_row(OLD, -1)));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_deliveries_inserted AFTER INSERT ON deliveries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_deliveries_changed();
--> statement-breakpoint
CREATE TRIGGER activity_deliveries_deleted AFTER DELETE ON deliveries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_deliveries_changed();
--> statement-breakpoint
CREATE TRIGGER activity_deliveries_updated AFTER UPDATE OF message_id, channel, address, status ON deliveries
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.address IS DISTINCT FROM NEW.address
    OR OLD.channel IS DISTINCT FROM NEW.channel OR OLD.message_id IS DISTINCT FROM NEW.message_id)
  EXECUTE FUNCTION activity_deliveries_changed();
--> statement-breakpoint
-- A colleague's entry (not the author's own: the copy's entry is not a reading) while it is in the inbox,
-- or in the trash from the inbox.
CREATE FUNCTION activity_entry_row(e mailbox_entries, n integer) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('m', e.message_id, 'd', 0, 'ak', 0, 'ar', 0,
    'ik', n * (coalesce(e.deleted_from, e.folder) = 'inbox' AND e.user_id IS DISTINCT FROM am.author_user_id)::int,
    'ir', n * (coalesce(e.deleted_from, e.folder) = 'inbox' AND e.user_id IS DISTINCT FROM am.author_user_id AND e.read_at IS NOT NULL)::int)
  FROM activity_messages am WHERE am.message_id = e.message_id AND am.counted
$$;
--> statement-breakpoint
CREATE FUNCTION activity_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM activity_days_delta(jsonb_agg(v)) FROM (SELECT activity_entry_row(r, 1) AS v FROM new_rows r) x WHERE v IS NOT NULL HAVING count(*) > 0;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM activity_days_delta(jsonb_agg(v)) FROM (SELECT activity_entry_row(r, -1) AS v FROM old_rows r) x WHERE v IS NOT NULL HAVING count(*) > 0;
  ELSE
    PERFORM activity_days_delta(jsonb_agg(v)) FROM unnest(ARRAY[activity_entry_row(NEW, 1), activity_entry_row(OLD, -1)]) v WHERE v IS NOT NULL HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_entries_inserted AFTER INSERT ON mailbox_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_entries_changed();
--> statement-breakpoint
CREATE TRIGGER activity_entries_deleted AFTER DELETE ON mailbox_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_entries_changed();
--> statement-breakpoint
CREATE TRIGGER activity_entries_updated AFTER UPDATE OF message_id, user_id, folder, deleted_from, read_at ON mailbox_entries
  FOR EACH ROW WHEN (OLD.folder IS DISTINCT FROM NEW.folder OR OLD.deleted_from IS DISTINCT FROM NEW.deleted_from
    OR (OLD.read_at IS NULL) <> (NEW.read_at IS NULL) OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.message_id IS DISTINCT FROM NEW.message_id)
  EXECUTE FUNCTION activity_entries_changed();
--> statement-breakpoint
-- Backfill: every message's key and contribution, as the triggers would have added them.
SELECT activity_refresh(array_agg(id ORDER BY id)) FROM messages HAVING count(*) > 0;
