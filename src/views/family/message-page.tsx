// One message: who sent it, the school, the children it is about, the date, the text and signature, its
// files (each downloaded through the API), the conversation so far, and the reply box when the author
// allowed replies.
import { useActorRef, useSelector } from '@xstate/react';
import { useId } from 'react';
import { Link, useSearch } from 'wouter';
import { FAMILY_REPLY_MAX, type FamilyAttachment } from '../../../shared/family-contract';
import {
  type FamilyDownloadActor,
  familyDownloadMachine,
  selectDownloadFailure,
  selectIsDownloading,
} from '../../machines/family/download';
import {
  type FamilyMessageActor,
  familyMessageMachine,
  selectDraft,
  selectIsRefreshing,
  selectIsReplying,
  selectMessage,
  selectMessageFailure,
  selectMessagePhase,
  selectPendingReply,
  selectRefreshFailure,
  selectReplies,
  selectReplyFailureKind,
  selectReplyFailureMessage,
  selectReplyProblem,
} from '../../machines/family/message';
import { Button } from '../ui/button';
import { Field, FieldError, FieldLabel, errorProps } from '../ui/field';
import { Textarea } from '../ui/textarea';
import { formatSize, formatWhen, useFamilyLocale, useFamilyT } from './family-context';
import { childOf, inboxHref } from './inbox-address';
import { useExpiredToSession } from './page-actor';

function useMessageActor(token: string, id: number): FamilyMessageActor {
  const actor = useActorRef(familyMessageMachine, { input: { token, id } });
  useExpiredToSession(actor);
  return actor;
}

/** One file's download, made in this chunk like the message's actor. */
function useDownloadActor(token: string, messageId: number, attachment: FamilyAttachment): FamilyDownloadActor {
  const actor = useActorRef(familyDownloadMachine, { input: { token, messageId, attachment } });
  useExpiredToSession(actor);
  return actor;
}

export function MessagePage({ token, id }: { token: string; id: number }) {
  const t = useFamilyT();
  const actor = useMessageActor(token, id);
  const phase = useSelector(actor, selectMessagePhase);
  const student = childOf(useSearch());
  return (
    <div className="flex flex-col gap-3">
      <Link href={inboxHref(student)} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
        ← {t('family.app.back')}
      </Link>
      {phase === 'loading' ? <p className="text-sm text-muted-foreground">{t('family.app.loading')}</p> : null}
      {phase === 'failed' ? <MessageFailed actor={actor} /> : null}
      {phase === 'shown' ? <MessageShown actor={actor} token={token} /> : null}
    </div>
  );
}

function MessageFailed({ actor }: { actor: FamilyMessageActor }) {
  const t = useFamilyT();
  const failure = useSelector(actor, selectMessageFailure);
  const text =
    failure === 'missing' ? t('family.message.missing') : failure === 'offline' ? t('family.message.offline') : t('family.message.error');
  return (
    <div role="alert" className="rounded-lg border border-destructive/40 bg-card p-4">
      <p>{text}</p>
      {failure === 'missing' ? null : (
        <Button variant="outline" className="mt-3" onClick={() => actor.send({ type: 'message.retry' })}>
          {t('family.message.retry')}
        </Button>
      )}
    </div>
  );
}

function MessageShown({ actor, token }: { actor: FamilyMessageActor; token: string }) {
  const t = useFamilyT();
  const locale = useFamilyLocale();
  const message = useSelector(actor, selectMessage);
  if (!message) return null;
  return (
    <article aria-labelledby="message-title" className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <h1 id="message-title" className="text-xl font-semibold break-words">
        {message.title}
      </h1>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">{t('family.message.from')}</dt>
        <dd>{message.sender_name}</dd>
        <dt className="text-muted-foreground">{t('family.message.school')}</dt>
        <dd>{message.school_name}</dd>
        {message.student_names ? (
          <>
            <dt className="text-muted-foreground">{t('family.message.about')}</dt>
            <dd>{message.student_names}</dd>
          </>
        ) : null}
        <dt className="text-muted-foreground">{t('family.message.date')}</dt>
        <dd>
          <time dateTime={message.sent_at ?? undefined}>{formatWhen(message.sent_at, locale)}</time>
        </dd>
      </dl>
      <div className="text-base break-words whitespace-pre-wrap">{message.content}</div>
      {message.signature ? <div className="text-sm break-words whitespace-pre-wrap text-muted-foreground">{message.signature}</div> : null}
      {message.attachments.length > 0 ? (
        <section aria-labelledby="files-title" className="flex flex-col gap-2 border-t pt-3">
          <h2 id="files-title" className="font-semibold">
            {t('family.children.attachments')}
          </h2>
          <p className="text-sm text-muted-foreground">{t('family.message.attachments', { count: message.attachments.length })}</p>
          <ul className="flex flex-col gap-2">
            {message.attachments.map((file) => (
              <AttachmentRow key={file.id} token={token} messageId={message.id} file={file} />
            ))}
          </ul>
        </section>
      ) : null}
      <Thread actor={actor} />
      {message.allow_replies ? <ReplyBox actor={actor} /> : null}
    </article>
  );
}

function AttachmentRow({ token, messageId, file }: { token: string; messageId: number; file: FamilyAttachment }) {
  const actor = useDownloadActor(token, messageId, file);
  return <AttachmentButton actor={actor} file={file} />;
}

function AttachmentButton({ actor, file }: { actor: FamilyDownloadActor; file: FamilyAttachment }) {
  const t = useFamilyT();
  const locale = useFamilyLocale();
  const downloading = useSelector(actor, selectIsDownloading);
  const failure = useSelector(actor, selectDownloadFailure);
  return (
    <li className="flex flex-col gap-1">
      <Button
        variant="outline"
        className="h-auto min-h-9 justify-start text-left whitespace-normal"
        disabled={downloading}
        onClick={() => actor.send({ type: 'attachment.download' })}
      >
        <span className="min-w-0 break-all">
          {downloading ? t('family.children.downloading', { name: file.name }) : t('family.children.download', { name: file.name })}
        </span>
        <span className="shrink-0 text-xs text-muted-foreground">{formatSize(file.size, locale)}</span>
      </Button>
      {failure ? (
        <p role="alert" className="text-sm text-destructive">
          {failure === 'offline'
            ? t('family.children.downloadOffline', { name: file.name })
            : t('family.children.downloadError', { name: file.name })}
        </p>
      ) : null}
    </li>
  );
}

/**
 * The conversation with the school: the staff's answers (their name and «Colegio») and the guardian's own
 * («Tu respuesta»), oldest first, each with its time; a reply on its way at the end, «Enviando…».
 * «Actualizar conversación» brings answers written since the page opened.
 */
function Thread({ actor }: { actor: FamilyMessageActor }) {
  const t = useFamilyT();
  const locale = useFamilyLocale();
  const message = useSelector(actor, selectMessage);
  const pending = useSelector(actor, selectPendingReply);
  const refreshing = useSelector(actor, selectIsRefreshing);
  const refreshFailure = useSelector(actor, selectRefreshFailure);
  if (!message) return null;
  if (message.thread.length === 0 && pending === null && !message.allow_replies) return null;
  return (
    <section aria-labelledby="thread-title" className="flex flex-col gap-2 border-t pt-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="thread-title" className="font-semibold">
          {t('family.message.thread')}
        </h2>
        <Button variant="outline" size="sm" disabled={refreshing} onClick={() => actor.send({ type: 'message.refresh' })}>
          {refreshing ? t('family.thread.refreshing') : t('family.thread.refresh')}
        </Button>
      </div>
      {refreshFailure ? (
        <p role="alert" className="text-sm text-destructive">
          {refreshFailure === 'offline' ? t('family.thread.refreshOffline') : t('family.thread.refreshError')}
        </p>
      ) : null}
      {message.thread.length === 0 && pending === null ? <p className="text-sm text-muted-foreground">{t('family.thread.empty')}</p> : null}
      <ol className="flex flex-col gap-2">
        {message.thread.map((item) => (
          <li
            key={item.id}
            data-slot="thread-item"
            data-mine={item.mine}
            className={item.mine ? 'ml-6 rounded-lg bg-secondary p-3' : 'mr-6 rounded-lg bg-muted p-3'}
          >
            <p className="text-sm font-medium">
              {item.mine ? (
                t('family.message.mine')
              ) : (
                <>
                  {item.sender_name} <span className="font-normal text-muted-foreground">· {t('family.message.school')}</span>
                </>
              )}
            </p>
            <p className="text-sm break-words whitespace-pre-wrap">{item.content}</p>
            {item.sent_at ? (
              <time className="text-xs text-muted-foreground" dateTime={item.sent_at}>
                {formatWhen(item.sent_at, locale)}
              </time>
            ) : null}
          </li>
        ))}
        {pending === null ? null : (
          <li data-slot="thread-item" data-pending="true" className="ml-6 rounded-lg border border-dashed bg-secondary/60 p-3">
            <p className="text-sm font-medium">{t('family.message.mine')}</p>
            <p className="text-sm break-words whitespace-pre-wrap">{pending}</p>
            <p className="text-xs text-muted-foreground">{t('family.thread.pending')}</p>
          </li>
        )}
      </ol>
    </section>
  );
}

function ReplyBox({ actor }: { actor: FamilyMessageActor }) {
  const t = useFamilyT();
  const id = useId();
  const draft = useSelector(actor, selectDraft);
  const problem = useSelector(actor, selectReplyProblem);
  const failureKind = useSelector(actor, selectReplyFailureKind);
  const failureMessage = useSelector(actor, selectReplyFailureMessage);
  const replying = useSelector(actor, selectIsReplying);
  const replies = useSelector(actor, selectReplies);
  const error =
    problem === 'required'
      ? t('family.message.errors.required')
      : problem === 'tooLong'
        ? t('family.message.errors.tooLong', { max: FAMILY_REPLY_MAX })
        : failureKind === 'server'
          ? failureMessage
          : failureKind === 'closed'
            ? t('family.message.errors.closed')
            : failureKind === 'offline'
              ? t('family.message.errors.offline')
              : failureKind === 'error'
                ? t('family.message.errors.error')
                : '';
  return (
    <form
      noValidate
      className="flex flex-col gap-2 border-t pt-3"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'reply.send' });
      }}
    >
      <Field data-invalid={error ? true : undefined}>
        <FieldLabel htmlFor={`${id}-reply`}>{t('family.message.replyLabel')}</FieldLabel>
        <Textarea
          id={`${id}-reply`}
          value={draft}
          placeholder={t('family.message.replyPlaceholder')}
          // On its way, the text is in the conversation above; the box waits (and gets it back on failure).
          readOnly={replying}
          onChange={(event) => actor.send({ type: 'reply.change', content: event.target.value })}
          className="min-h-24!"
          {...errorProps(error, `${id}-reply-error`)}
        />
        <FieldError id={`${id}-reply-error`}>{error}</FieldError>
      </Field>
      {replies > 0 && draft === '' && !error ? (
        <p role="status" className="text-sm font-medium">
          {t('family.message.sent')}
        </p>
      ) : null}
      <Button type="submit" disabled={replying} className="self-end">
        {replying ? t('family.message.sending') : t('family.message.send')}
      </Button>
    </form>
  );
}
