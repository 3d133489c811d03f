CREATE TABLE "activity_authors" (
	"institution_id" integer NOT NULL,
	"school_year" smallint NOT NULL,
	"author_user_id" integer NOT NULL,
	"reached" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "activity_authors_pk" PRIMARY KEY("institution_id","school_year","author_user_id")
);
--> statement-breakpoint
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
ALTER TABLE "activity_authors" ADD CONSTRAINT "activity_authors_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
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
-- Bulk writers (the seed, the bench's history: server/dashboard/rollup.ts) pause the triggers for their
-- transaction (`set_config('hermes.activity_rollup', 'paused', true)`) and rebuild the roll-up of their
-- schools once at the end with activity_rebuild.
CREATE FUNCTION activity_rollup_paused() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('hermes.activity_rollup', true), '') = 'paused'
$$;
--> statement-breakpoint
-- Adds signed deltas to the people rows under full keys ({i: school, y: school year, a: author, k: kind,
-- r: ref, ad: addressed, re: reached, rd: read}), then to each author's count of people reached (a row's
-- `reached` was the new value minus its delta: from 0 to more adds one, back to 0 takes it away) and to the
-- guardians' rows. Rows locked in key order: the authors', then the people.
CREATE FUNCTION activity_people_add(p_rows jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM activity_authors t
    JOIN (SELECT DISTINCT x.i, x.y, x.a FROM jsonb_to_recordset(p_rows) AS x(i integer, y smallint, a integer)) k
      ON t.institution_id = k.i AND t.school_year = k.y AND t.author_user_id = k.a
    ORDER BY t.institution_id, t.school_year, t.author_user_id FOR UPDATE OF t;
  WITH delta AS (
    SELECT x.i, x.y, x.a, x.k, x.r, sum(x.ad)::int AS ad, sum(x.re)::int AS re, sum(x.rd)::int AS rd
    FROM jsonb_to_recordset(p_rows) AS x(i integer, y smallint, a integer, k text, r integer, ad integer, re integer, rd integer)
    WHERE EXISTS (SELECT 1 FROM institutions s WHERE s.id = x.i)
    GROUP BY x.i, x.y, x.a, x.k, x.r
  ), people AS (
    INSERT INTO activity_reach AS t (institution_id, school_year, author_user_id, recipient_kind, recipient_ref_id, addressed, reached, read)
    SELECT i, y, a, k, r, ad, re, rd FROM delta ORDER BY i, y, a, k, r
    ON CONFLICT (institution_id, school_year, author_user_id, recipient_kind, recipient_ref_id) DO UPDATE SET
      addressed = t.addressed + excluded.addressed, reached = t.reached + excluded.reached, read = t.read + excluded.read
    RETURNING t.institution_id AS i, t.school_year AS y, t.author_user_id AS a, t.recipient_kind AS k, t.recipient_ref_id AS r, t.reached
  ), authors AS (
    INSERT INTO activity_authors AS t (institution_id, school_year, author_user_id, reached)
    SELECT p.i, p.y, p.a, sum((p.reached > 0)::int - (p.reached - d.re > 0)::int)
    FROM people p JOIN delta d ON d.i = p.i AND d.y = p.y AND d.a = p.a AND d.k = p.k AND d.r = p.r
    GROUP BY p.i, p.y, p.a
    ORDER BY 1, 2, 3
    ON CONFLICT (institution_id, school_year, author_user_id) DO UPDATE SET reached = t.reached + excluded.reached
  )
  INSERT INTO activity_guardians AS t (institution_id, school_year, guardian_id, addressed, reached, read)
  SELECT i, y, r, sum(ad), sum(re), sum(rd) FROM delta WHERE k = 'apoderado'
  GROUP BY i, y, r
  ORDER BY 1, 2, 3
  ON CONFLICT (institution_id, school_year, guardian_id) DO UPDATE SET
    addressed = t.addressed + excluded.addressed, reached = t.reached + excluded.reached, read = t.read + excluded.read;
END $$;
--> statement-breakpoint
-- Adds `p_sign` × the whole contribution of message `p_message` (its recipients, deliveries and colleagues'
-- entries as they are now) under the key given. Where reading is known each person counts once: a guardian
-- or student by their app delivery, a colleague by their inbox entry (not also by the app delivery the send
-- path writes for them, `user:<id>`). Rows locked in key order: the day's row, then the people.
CREATE FUNCTION activity_contribute(p_message integer, p_institution integer, p_author integer, p_day date, p_year smallint, p_sign integer)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO activity_days AS a (institution_id, day, author_user_id, messages, deliveries, app_known, app_read, inbox_known, inbox_read)
  SELECT p_institution, p_day, p_author, p_sign,
    p_sign * (SELECT count(*) FROM deliveries d WHERE d.message_id = p_message AND d.address IS NOT NULL),
    p_sign * (SELECT count(*) FROM deliveries d WHERE d.message_id = p_message AND d.address IS NOT NULL AND d.channel = 'app-mobile'
      AND NOT EXISTS (SELECT 1 FROM message_recipients r WHERE r.id = d.recipient_id AND r.recipient_kind = 'funcionario')),
    p_sign * (SELECT count(*) FROM deliveries d WHERE d.message_id = p_message AND d.address IS NOT NULL AND d.channel = 'app-mobile' AND d.status = 'read'
      AND NOT EXISTS (SELECT 1 FROM message_recipients r WHERE r.id = d.recipient_id AND r.recipient_kind = 'funcionario')),
    p_sign * (SELECT count(*) FROM mailbox_entries e WHERE e.message_id = p_message AND e.user_id <> p_author AND coalesce(e.deleted_from, e.folder) = 'inbox'),
    p_sign * (SELECT count(*) FROM mailbox_entries e WHERE e.message_id = p_message AND e.user_id <> p_author AND coalesce(e.deleted_from, e.folder) = 'inbox' AND e.read_at IS NOT NULL)
  WHERE EXISTS (SELECT 1 FROM institutions i WHERE i.id = p_institution)
  ON CONFLICT (institution_id, day, author_user_id) DO UPDATE SET
    messages = a.messages + excluded.messages, deliveries = a.deliveries + excluded.deliveries,
    app_known = a.app_known + excluded.app_known, app_read = a.app_read + excluded.app_read,
    inbox_known = a.inbox_known + excluded.inbox_known, inbox_read = a.inbox_read + excluded.inbox_read;
  IF p_year IS NOT NULL THEN
    PERFORM activity_people_add(jsonb_agg(jsonb_build_object('i', p_institution, 'y', p_year, 'a', p_author,
        'k', r.recipient_kind, 'r', r.recipient_ref_id, 'ad', p_sign,
        're', p_sign * (r.status IN ('received', 'read'))::int, 'rd', p_sign * (r.status = 'read')::int)))
    FROM message_recipients r WHERE r.message_id = p_message HAVING count(*) > 0;
  END IF;
END $$;
--> statement-breakpoint
-- Re-reads the key of each message (server/dashboard/period.ts staffMessagesSql and isAuthorCopy say what
-- counts) and, where it changed, moves its whole contribution from the old key to the new one. The triggers'
-- path, a few messages at a time; a whole school is rebuilt set-based by activity_rebuild.
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
  IF activity_rollup_paused() THEN
    RETURN NULL;
  END IF;
  PERFORM activity_refresh(ARRAY[coalesce(NEW.id, OLD.id)]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_messages_changed AFTER INSERT OR DELETE OR UPDATE OF kind, sent_at, author_user_id, institution_id, copy_to_sender, sender_kind, sender_ref_id
  ON messages FOR EACH ROW EXECUTE FUNCTION activity_messages_changed();
--> statement-breakpoint
-- Adds signed per-recipient deltas ({m: message, k: kind, r: ref, s: status, n: ±1}) to the people's counts
-- under each message's key; the day's row is locked first (a delivery outcome locks it before its
-- recipient's people rows), then activity_people_add's.
CREATE FUNCTION activity_reach_delta(p_rows jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM activity_days a
    JOIN (SELECT DISTINCT am.institution_id, am.day, am.author_user_id
          FROM jsonb_to_recordset(p_rows) AS x(m integer) JOIN activity_messages am ON am.message_id = x.m AND am.counted) k
      ON a.institution_id = k.institution_id AND a.day = k.day AND a.author_user_id = k.author_user_id
    ORDER BY a.institution_id, a.day, a.author_user_id FOR UPDATE OF a;
  PERFORM activity_people_add(jsonb_agg(jsonb_build_object('i', am.institution_id, 'y', am.school_year, 'a', am.author_user_id,
      'k', x.k, 'r', x.r, 'ad', x.n, 're', x.n * (x.s IN ('received', 'read'))::int, 'rd', x.n * (x.s = 'read')::int)))
  FROM jsonb_to_recordset(p_rows) AS x(m integer, k text, r integer, s text, n integer)
  JOIN activity_messages am ON am.message_id = x.m AND am.counted AND am.school_year IS NOT NULL
  HAVING count(*) > 0;
END $$;
--> statement-breakpoint
-- Recipients: the people's counts, then the key of messages that might be the author's copy (a copy is told
-- by its recipients: server/dashboard/period.ts isAuthorCopy).
CREATE FUNCTION activity_recipients_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb;
BEGIN
  IF activity_rollup_paused() THEN
    RETURN NULL;
  END IF;
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
-- A day's delta row ({m, d, ak, ar, ik, ir}) of one row of `p_table` (as jsonb, whichever its table):
-- a delivery with an address (null without; app known and read only for a guardian or student: a colleague is
-- known by their entry), or a colleague's mailbox entry (not the author's own: the copy's entry is not a
-- reading) while it is in the inbox, or in the trash from the inbox (null when its message does not count).
-- A delivery deleted with its recipient (a cascade) no longer finds it: its app address then tells a
-- colleague's (`user:<id>`, server/compose/expand.ts) from a guardian's (`guardian:<id>`).
CREATE FUNCTION activity_day_row(p_table text, r jsonb, n integer) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN p_table = 'deliveries' THEN CASE WHEN r->>'address' IS NOT NULL THEN (
      SELECT jsonb_build_object('m', (r->>'message_id')::int, 'd', n, 'ak', n * app::int, 'ar', n * (app AND r->>'status' = 'read')::int, 'ik', 0, 'ir', 0)
      FROM (SELECT r->>'channel' = 'app-mobile' AND NOT coalesce(
          (SELECT mr.recipient_kind = 'funcionario' FROM message_recipients mr WHERE mr.id = (r->>'recipient_id')::int),
          r->>'address' LIKE 'user:%') AS app) k) END
    ELSE (SELECT jsonb_build_object('m', am.message_id, 'd', 0, 'ak', 0, 'ar', 0,
        'ik', n * (inbox AND colleague)::int, 'ir', n * (inbox AND colleague AND r->>'read_at' IS NOT NULL)::int)
      FROM activity_messages am
      CROSS JOIN LATERAL (SELECT coalesce(r->>'deleted_from', r->>'folder') = 'inbox' AS inbox,
        (r->>'user_id')::int IS DISTINCT FROM am.author_user_id AS colleague) e
      WHERE am.message_id = (r->>'message_id')::int AND am.counted)
  END
$$;
--> statement-breakpoint
-- Deliveries and mailbox entries: their rows' deltas to the days (activity_day_row says which count).
CREATE FUNCTION activity_day_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF activity_rollup_paused() THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM activity_days_delta(jsonb_agg(v)) FROM (SELECT activity_day_row(TG_TABLE_NAME, to_jsonb(r), 1) AS v FROM new_rows r) x
      WHERE v IS NOT NULL HAVING count(*) > 0;
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM activity_days_delta(jsonb_agg(v)) FROM (SELECT activity_day_row(TG_TABLE_NAME, to_jsonb(r), -1) AS v FROM old_rows r) x
      WHERE v IS NOT NULL HAVING count(*) > 0;
  ELSE
    PERFORM activity_days_delta(jsonb_agg(v))
      FROM unnest(ARRAY[activity_day_row(TG_TABLE_NAME, to_jsonb(NEW), 1), activity_day_row(TG_TABLE_NAME, to_jsonb(OLD), -1)]) v
      WHERE v IS NOT NULL HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_deliveries_inserted AFTER INSERT ON deliveries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_day_rows_changed();
--> statement-breakpoint
CREATE TRIGGER activity_deliveries_deleted AFTER DELETE ON deliveries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_day_rows_changed();
--> statement-breakpoint
CREATE TRIGGER activity_deliveries_updated AFTER UPDATE OF message_id, channel, address, status ON deliveries
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.address IS DISTINCT FROM NEW.address
    OR OLD.channel IS DISTINCT FROM NEW.channel OR OLD.message_id IS DISTINCT FROM NEW.message_id)
  EXECUTE FUNCTION activity_day_rows_changed();
--> statement-breakpoint
CREATE TRIGGER activity_entries_inserted AFTER INSERT ON mailbox_entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_day_rows_changed();
--> statement-breakpoint
CREATE TRIGGER activity_entries_deleted AFTER DELETE ON mailbox_entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_day_rows_changed();
--> statement-breakpoint
CREATE TRIGGER activity_entries_updated AFTER UPDATE OF message_id, user_id, folder, deleted_from, read_at ON mailbox_entries
  FOR EACH ROW WHEN (OLD.folder IS DISTINCT FROM NEW.folder OR OLD.deleted_from IS DISTINCT FROM NEW.deleted_from
    OR (OLD.read_at IS NULL) <> (NEW.read_at IS NULL) OR OLD.user_id IS DISTINCT FROM NEW.user_id OR OLD.message_id IS DISTINCT FROM NEW.message_id)
  EXECUTE FUNCTION activity_day_rows_changed();
--> statement-breakpoint
-- The whole roll-up of the schools given, from the raw rows, one set-based statement per table (the same
-- rules as the triggers: activity_refresh's key and counted, activity_contribute's counts). The migration's
-- backfill and the bulk writers' (server/dashboard/rollup.ts) after writing with the triggers paused; it
-- assumes nobody else writes those schools' messages meanwhile.
CREATE FUNCTION activity_rebuild(p_institutions integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM activity_authors WHERE institution_id = ANY (p_institutions);
  DELETE FROM activity_guardians WHERE institution_id = ANY (p_institutions);
  DELETE FROM activity_reach WHERE institution_id = ANY (p_institutions);
  DELETE FROM activity_days WHERE institution_id = ANY (p_institutions);
  DELETE FROM activity_messages WHERE institution_id = ANY (p_institutions);
  INSERT INTO activity_messages (message_id, institution_id, author_user_id, day, school_year, counted)
  SELECT m.id, m.institution_id, m.author_user_id, local.day, activity_school_year(i.country, local.day),
    m.kind = 'sent' AND m.author_user_id IS NOT NULL AND m.sent_at IS NOT NULL AND copies.id IS NULL
  FROM messages m
  JOIN institutions i ON i.id = m.institution_id
  CROSS JOIN LATERAL (SELECT (m.sent_at AT TIME ZONE i.timezone)::date AS day) local
  -- The author's copy: its only recipients are the author's own staff row.
  LEFT JOIN (
    SELECT c.id FROM messages c JOIN message_recipients r ON r.message_id = c.id
    WHERE c.copy_to_sender AND c.sender_kind = 'funcionario' AND c.institution_id = ANY (p_institutions)
    GROUP BY c.id
    HAVING bool_and(r.recipient_kind = 'funcionario' AND r.recipient_ref_id = c.sender_ref_id)
  ) copies ON copies.id = m.id
  WHERE m.institution_id = ANY (p_institutions);
  INSERT INTO activity_days (institution_id, day, author_user_id, messages, deliveries, app_known, app_read, inbox_known, inbox_read)
  SELECT am.institution_id, am.day, am.author_user_id, count(*), coalesce(sum(d.n), 0), coalesce(sum(d.ak), 0), coalesce(sum(d.ar), 0),
    coalesce(sum(e.ik), 0), coalesce(sum(e.ir), 0)
  FROM activity_messages am
  LEFT JOIN (
    SELECT d.message_id, count(*) AS n, count(*) FILTER (WHERE d.channel = 'app-mobile' AND staff.id IS NULL) AS ak,
      count(*) FILTER (WHERE d.channel = 'app-mobile' AND staff.id IS NULL AND d.status = 'read') AS ar
    FROM deliveries d JOIN activity_messages x ON x.message_id = d.message_id AND x.counted AND x.institution_id = ANY (p_institutions)
    -- Colleagues' recipients (message_recipients_person_idx): their app deliveries are not where reading is known.
    LEFT JOIN message_recipients staff ON staff.id = d.recipient_id AND staff.recipient_kind = 'funcionario'
    WHERE d.address IS NOT NULL
    GROUP BY d.message_id
  ) d ON d.message_id = am.message_id
  LEFT JOIN (
    SELECT e.message_id, count(*) AS ik, count(*) FILTER (WHERE e.read_at IS NOT NULL) AS ir
    FROM mailbox_entries e JOIN activity_messages x ON x.message_id = e.message_id AND x.counted AND x.institution_id = ANY (p_institutions)
    WHERE e.user_id <> x.author_user_id AND coalesce(e.deleted_from, e.folder) = 'inbox'
    GROUP BY e.message_id
  ) e ON e.message_id = am.message_id
  WHERE am.counted AND am.institution_id = ANY (p_institutions)
  GROUP BY am.institution_id, am.day, am.author_user_id;
  INSERT INTO activity_reach (institution_id, school_year, author_user_id, recipient_kind, recipient_ref_id, addressed, reached, read)
  SELECT am.institution_id, am.school_year, am.author_user_id, r.recipient_kind, r.recipient_ref_id, count(*),
    count(*) FILTER (WHERE r.status IN ('received', 'read')), count(*) FILTER (WHERE r.status = 'read')
  FROM activity_messages am JOIN message_recipients r ON r.message_id = am.message_id
  WHERE am.counted AND am.school_year IS NOT NULL AND am.institution_id = ANY (p_institutions)
  GROUP BY am.institution_id, am.school_year, am.author_user_id, r.recipient_kind, r.recipient_ref_id;
  INSERT INTO activity_guardians (institution_id, school_year, guardian_id, addressed, reached, read)
  SELECT institution_id, school_year, recipient_ref_id, sum(addressed), sum(reached), sum(read)
  FROM activity_reach
  WHERE recipient_kind = 'apoderado' AND institution_id = ANY (p_institutions)
  GROUP BY institution_id, school_year, recipient_ref_id;
  INSERT INTO activity_authors (institution_id, school_year, author_user_id, reached)
  SELECT institution_id, school_year, author_user_id, count(*) FILTER (WHERE reached > 0)
  FROM activity_reach
  WHERE institution_id = ANY (p_institutions)
  GROUP BY institution_id, school_year, author_user_id;
END $$;
--> statement-breakpoint
-- Backfill: every school's roll-up, as the triggers would have kept it.
SELECT activity_rebuild(ARRAY(SELECT id FROM institutions));
--> statement-breakpoint
-- Statistics for the readers' plans from the start (the embedded database has no autovacuum to take them).
ANALYZE activity_messages, activity_days, activity_reach, activity_guardians, activity_authors;
