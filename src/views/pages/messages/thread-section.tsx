import { Link } from 'wouter';
import type { ThreadMessage } from '../../../../shared/messages-contract';
import { formatDateTime } from '../../lib/format';
import { useLocale, useT } from '../../lib/i18n';

/**
 * The message's conversation (the messages it answers, the answers to it), each a line that opens it:
 * who, when, the title and the first words. Nothing when it is a message of its own.
 */
export function ThreadSection({ thread, timezone }: { thread: ThreadMessage[]; timezone: string }) {
  const t = useT();
  const locale = useLocale();
  if (thread.length === 0) return null;
  return (
    <section aria-labelledby="thread-title" className="flex flex-col gap-2 border-t pt-4">
      <h2 id="thread-title" className="text-sm font-semibold">
        {t('messages.thread.title')}
      </h2>
      <p className="text-xs text-muted-foreground">{t('messages.thread.description', { count: thread.length })}</p>
      <ol className="flex flex-col gap-2">
        {thread.map((m) => (
          <li key={m.id}>
            <Link
              href={`/${m.folder}/message/${m.id}`}
              className="flex min-w-0 flex-col gap-0.5 rounded-md border p-3 hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            >
              <span className="flex flex-wrap justify-between gap-x-3 text-xs text-muted-foreground">
                <span className="font-medium text-foreground">{m.sender.name}</span>
                <time dateTime={m.date}>{formatDateTime(m.date, locale, timezone)}</time>
              </span>
              <span className="truncate text-sm font-medium">{m.title}</span>
              <span className="line-clamp-2 text-sm break-words text-muted-foreground">{m.snippet}</span>
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
