-- The delivery engine records its outcomes a few at a time, and each recipient's state change fired the
-- roll-up once per row: most of the cost of recording a send. Recipients' changes are now added once per
-- statement, and a change that cannot move a count fires nothing (counts read only whether a status is
-- reached, received or read, and read).
DROP TRIGGER activity_recipients_updated ON message_recipients;
--> statement-breakpoint
CREATE FUNCTION activity_recipients_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed jsonb;
BEGIN
  IF activity_rollup_paused() THEN
    RETURN NULL;
  END IF;
  SELECT jsonb_agg(x.v ORDER BY n.id) INTO changed
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  CROSS JOIN LATERAL (VALUES
    (jsonb_build_object('m', n.message_id, 'k', n.recipient_kind, 'r', n.recipient_ref_id, 's', n.status, 'n', 1)),
    (jsonb_build_object('m', o.message_id, 'k', o.recipient_kind, 'r', o.recipient_ref_id, 's', o.status, 'n', -1))) AS x(v)
  WHERE o.message_id IS DISTINCT FROM n.message_id
    OR o.recipient_kind IS DISTINCT FROM n.recipient_kind
    OR o.recipient_ref_id IS DISTINCT FROM n.recipient_ref_id
    OR (o.status IN ('received', 'read')) IS DISTINCT FROM (n.status IN ('received', 'read'))
    OR (o.status = 'read') IS DISTINCT FROM (n.status = 'read');
  IF changed IS NOT NULL THEN
    PERFORM activity_reach_delta(changed);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Transition tables rule out a column list: the function picks the rows that changed what it counts.
CREATE TRIGGER activity_recipients_updated AFTER UPDATE ON message_recipients
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION activity_recipients_updated();
--> statement-breakpoint
-- A delivery's day counts read its status only as "read" (activity_day_row): the engine's queued → sent →
-- received or failed moves nothing, so it no longer fires.
DROP TRIGGER activity_deliveries_updated ON deliveries;
--> statement-breakpoint
CREATE TRIGGER activity_deliveries_updated AFTER UPDATE OF message_id, channel, address, status ON deliveries
  FOR EACH ROW WHEN ((OLD.status = 'read') IS DISTINCT FROM (NEW.status = 'read') OR OLD.address IS DISTINCT FROM NEW.address
    OR OLD.channel IS DISTINCT FROM NEW.channel OR OLD.message_id IS DISTINCT FROM NEW.message_id)
  EXECUTE FUNCTION activity_day_rows_changed();
