// /new: the compose screen's shell (the page actor, its frame, the skeleton while it loads, the load
// failure). The form's sections are in pages/compose/.
import { useState, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { useSearch } from 'wouter';
import { composeMachine } from '../../../machines/compose/compose';
import { selectDraftId, selectIsLoading, selectLoadFailed, selectReplyToId } from '../../../machines/compose/selectors';
import type { SessionSnapshot } from '../../../machines/session/session';
import type { MessageKey } from '../../../i18n';
import { sessionActor } from '../../actors';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { LoadFailure } from '../../ui/list-state';
import { FormSkeleton, Page, PageTitle } from '../../ui/page';
import { ComposeForm } from './compose-form';
import type { ComposeActor } from './field';

const selectUserId = (snapshot: SessionSnapshot): number | null => snapshot.context.user?.id ?? null;

/** `?draft=12` → 12; anything else → null. */
function idParam(params: URLSearchParams, name: string): number | null {
  const raw = params.get(name);
  return raw !== null && /^\d{1,12}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/**
 * /new, /new?draft=ID (edit a draft), /new?reply=ID (answer a message), /new?template=ID (a new message
 * from a template) and /new?list=ID (a new message to a saved list). Each of those is its own
 * compose actor with its own local backup, so a reply never restores what was typed for another message.
 */
export function ComposePage() {
  const search = useSearch();
  const userId = useSelector(sessionActor, selectUserId);
  const params = new URLSearchParams(search);
  const draftId = idParam(params, 'draft');
  const replyToId = draftId === null ? idParam(params, 'reply') : null;
  // "Usar en mensaje nuevo" on /templates: a new message that starts from that template.
  const templateId = draftId === null && replyToId === null ? idParam(params, 'template') : null;
  // "Usar en mensaje nuevo" on a recipient list: a new message to that list (its own backup per list).
  const listId = draftId === null && replyToId === null ? idParam(params, 'list') : null;
  if (userId === null) return null;
  const start = replyToId !== null ? `reply-${replyToId}` : listId !== null ? `list-${listId}` : 'new';
  const backupKey = `compose:${userId}:${draftId ?? start}`;
  return (
    <ComposeScreen key={backupKey} draftId={draftId} replyToId={replyToId} backupKey={backupKey} templateId={templateId} listId={listId} />
  );
}

export function ComposeScreen({
  draftId,
  replyToId,
  backupKey,
  templateId = null,
  listId = null,
}: {
  draftId: number | null;
  replyToId: number | null;
  backupKey: string;
  templateId?: number | null;
  listId?: number | null;
}) {
  // The template the visit started with: once used, compose drops it from the address (a reload must not
  // ask again), which must not open another visit.
  const t = useT();
  const [startTemplate] = useState(templateId);
  const compose = usePageActor(composeMachine, {
    input: { draftId, replyToId, backupKey, templateId: startTemplate, ...(listId !== null ? { listId } : {}) },
  });
  return compose ? (
    <ComposeView compose={compose} />
  ) : (
    <ComposeFrame heading="compose.heading">
      <FormSkeleton label={t('compose.loading')} heights={FORM_OUTLINE} />
    </ComposeFrame>
  );
}

/** The form's outline while it loads. */
const FORM_OUTLINE = ['h-10', 'h-16', 'h-10', 'h-40', 'h-10'];

function ComposeFrame({ heading, children }: { heading: MessageKey; children: ReactNode }) {
  const t = useT();
  return (
    <Page width="max-w-3xl">
      <PageTitle>{t(heading)}</PageTitle>
      {children}
    </Page>
  );
}

function ComposeView({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const { loading, loadFailed, draftId, replyToId } = useSelectors(compose, {
    loading: selectIsLoading,
    loadFailed: selectLoadFailed,
    draftId: selectDraftId,
    replyToId: selectReplyToId,
  });
  const editingDraft = draftId !== null;
  const replying = replyToId !== null;

  return (
    <ComposeFrame heading={replying ? 'compose.replyHeading' : editingDraft ? 'compose.draftHeading' : 'compose.heading'}>
      {loadFailed ? (
        <LoadFailure message={t('compose.loadFailed')}>
          <Button onClick={() => compose.send({ type: 'compose.retry' })}>{t('compose.retry')}</Button>
        </LoadFailure>
      ) : loading ? (
        <FormSkeleton label={t('compose.loading')} heights={FORM_OUTLINE} />
      ) : (
        <ComposeForm compose={compose} />
      )}
    </ComposeFrame>
  );
}
