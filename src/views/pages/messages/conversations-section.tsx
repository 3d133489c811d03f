import { Link } from 'wouter';
import type { GuardianConversation } from '../../../../shared/messages-contract';
import { useT } from '../../lib/i18n';
import { buttonVariants } from '../../ui/button';
import { cn } from '../../lib/utils';
import { GuardianOfLine } from './guardian-of';
import { ThreadArticle } from './thread-section';

/**
 * Under a message to many families, each family's thread apart (server/messages/family-threads.ts): the
 * guardian (whose guardian they are), their answers and the staff's, oldest first, and «Responder a …»,
 * which opens compose answering that guardian's latest message (on the app when they wrote from it).
 */
export function ConversationsSection({ conversations, timezone }: { conversations: GuardianConversation[]; timezone: string }) {
  const t = useT();
  if (conversations.length === 0) return null;
  return (
    <section aria-labelledby="conversations-title" className="flex flex-col gap-3 border-t pt-4">
      <h2 id="conversations-title" className="text-sm font-semibold">
        {t('messages.conversations.title')}
      </h2>
      <p className="text-xs text-muted-foreground">{t('messages.conversations.description', { count: conversations.length })}</p>
      <ul className="flex flex-col gap-4">
        {conversations.map((c) => (
          <li key={c.guardian.id}>
            <section aria-labelledby={`conversation-${c.guardian.id}`} className="flex flex-col gap-2 rounded-md bg-muted/40 p-3">
              <h3 id={`conversation-${c.guardian.id}`} className="flex flex-col text-sm font-medium">
                {t('messages.conversations.with', { name: c.guardian.name })}
                <GuardianOfLine of={c.guardian_of} />
              </h3>
              <ol className="flex flex-col gap-2">
                {c.messages.map((m) => (
                  <li key={m.id} className={m.folder === 'sent' ? 'ml-6' : 'mr-6'}>
                    <ThreadArticle message={m} timezone={timezone} nested />
                  </li>
                ))}
              </ol>
              {c.answer_to === null ? null : (
                <Link href={`/new?reply=${c.answer_to}`} className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'w-fit')}>
                  {t('messages.conversations.answer', { name: c.guardian.name })}
                </Link>
              )}
            </section>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The thread's messages that no family's conversation shows already (each is shown once). */
export function outsideConversations(detail: { thread: GuardianConversation['messages']; conversations: GuardianConversation[] }) {
  const shown = new Set(detail.conversations.flatMap((c) => c.messages.map((m) => m.id)));
  return detail.thread.filter((m) => !shown.has(m.id));
}
