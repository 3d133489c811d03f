import { Link } from 'wouter';
import type { ThreadMessage } from '../../../../shared/messages-contract';
import { formatDateTime } from '../../lib/format';
import { useLocale, useT } from '../../lib/i18n';
import { GuardianOfLine } from './guardian-of';

/**
 * The message's conversation (the messages it answers, the answers to it), each whole: who (and whose
 * guardian), when, the title as a link that opens it, and all of its text, so the exchange reads in one
 * place. Nothing when it is a message of its own.
 */
export function ThreadSection({ thread, timezone }: { thread: ThreadMessage[]; timezone: string }) {
  const t = useT();
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
            <ThreadArticle message={m} timezone={timezone} />
          </li>
        ))}
      </ol>
    </section>
  );
}

/** One message of a conversation, whole: who (and whose guardian), when, its title as a link, its text. */
export function ThreadArticle({ message: m, timezone, nested = false }: { message: ThreadMessage; timezone: string; nested?: boolean }) {
  const t = useT();
  const locale = useLocale();
  // Under a family's conversation heading (h3), a level deeper.
  const Heading = nested ? 'h4' : 'h3';
  return (
    <article aria-labelledby={`thread-${m.id}`} className="flex min-w-0 flex-col gap-1 rounded-md border p-3">
      <header className="flex flex-wrap justify-between gap-x-3 text-xs text-muted-foreground">
        <span className="flex min-w-0 flex-col">
          <span className="font-medium text-foreground">{m.sender.name}</span>
          <GuardianOfLine of={m.sender_of} />
        </span>
        <time dateTime={m.date}>{formatDateTime(m.date, locale, timezone)}</time>
      </header>
      <Heading id={`thread-${m.id}`} className="text-sm font-medium break-words">
        <Link
          href={`/${m.folder}/message/${m.id}`}
          className="rounded-sm text-primary hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          {m.title || t('messages.untitled')}
        </Link>
      </Heading>
      <p data-slot="thread-content" className="text-sm leading-relaxed break-words whitespace-pre-wrap">
        {m.content}
      </p>
    </article>
  );
}
