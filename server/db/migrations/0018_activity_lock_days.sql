-- The lock order of reception's writers: the roll-up's day rows of their messages, all at once and in key
-- order, before the recipients. A receipt that makes a delivery read takes some of them through the
-- deliveries' trigger, and the recipients' trigger takes them after; the engine's refresh of owed
-- recipients locks recipients with no delivery first. Taken here up front, none of them can wait in a circle.
CREATE FUNCTION activity_lock_days(p_messages integer[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM activity_days a
    JOIN (SELECT DISTINCT am.institution_id, am.day, am.author_user_id
          FROM activity_messages am WHERE am.message_id = ANY(p_messages) AND am.counted) k
      ON a.institution_id = k.institution_id AND a.day = k.day AND a.author_user_id = k.author_user_id
    ORDER BY a.institution_id, a.day, a.author_user_id FOR UPDATE OF a;
END $$;
