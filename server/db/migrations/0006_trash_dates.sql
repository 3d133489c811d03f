-- The trash lists each message under its own date (sent, scheduled or last edited), like the folder it
-- came from, instead of the time it was deleted: rows trashed before this change get that date now.
UPDATE "mailbox_entries" AS e SET "sort_at" = CASE e."deleted_from"
    WHEN 'scheduled' THEN coalesce(m."scheduled_at", m."updated_at")
    WHEN 'draft' THEN m."updated_at"
    ELSE coalesce(m."sent_at", m."updated_at") END
  FROM "messages" AS m
  WHERE m."id" = e."message_id" AND e."folder" = 'trash';
