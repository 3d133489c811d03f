import { useEffect, useId, useState, type DragEvent, type ReactNode } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { useSearch } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import {
  composeMachine,
  selectAllowReplies,
  selectAttachments,
  selectAvailableChannels,
  selectContent,
  selectCopyToSender,
  selectDraftId,
  selectEstimate,
  selectFailureMessage,
  selectHasChannel,
  selectHasError,
  selectHasFailed,
  selectHasSchedule,
  selectIsBusy,
  selectIsConfirming,
  selectIsEstimating,
  selectIsLoading,
  selectIsLocked,
  selectIsSavingDraft,
  selectIsScheduling,
  selectIsSending,
  selectLoadFailed,
  selectRecipients,
  selectReplyToId,
  selectScheduleDate,
  selectScheduleTime,
  selectSignature,
  selectSignatureActive,
  selectSmsLimit,
  selectSmsMonthlyLimit,
  selectSmsOk,
  selectSmsRemaining,
  selectSmsTotal,
  selectSmsUnits,
  selectSmsUnsupported,
  selectTimezone,
  selectTitle,
  type ComposeField,
  type ComposeMachine,
  type ComposeSnapshot,
} from '../../machines/compose';
import { selectLocale } from '../../machines/locale';
import { pickKey, recipientPickerMachine, selectEmptyPickKeys, selectPeopleCount } from '../../machines/recipient-picker';
import type { SessionSnapshot } from '../../machines/session';
import type { RecipientPick } from '../../../shared/compose-contract';
import { localeActor, sessionActor } from '../actors';
import { formatZoneName } from '../lib/format';
import type { MessageKey } from '../../i18n';
import { useT } from '../lib/i18n';
import { usePageActor } from '../lib/page-actor';
import { cn } from '../lib/utils';
import { Badge } from '../ui/badge';
import { Button, buttonVariants } from '../ui/button';
import { Checkbox } from '../ui/checkbox';
import { Dialog, DialogTrigger } from '../ui/dialog';
import { Field, FieldDescription, FieldError, FieldLabel } from '../ui/field';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { Textarea } from '../ui/textarea';
import { AttachmentItem } from './compose/attachment-item';
import { RecipientPickerContent } from './compose/recipient-picker';
import type { ChannelCode } from '../../../shared/codes';

type ComposeActor = ActorRefFrom<ComposeMachine>;

const selectUserId = (snapshot: SessionSnapshot): number | null => snapshot.context.user?.id ?? null;

/** `?draft=12` → 12; anything else → null. */
function idParam(params: URLSearchParams, name: string): number | null {
  const raw = params.get(name);
  return raw !== null && /^\d{1,12}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/**
 * /new, /new?draft=ID (edit a draft) and /new?reply=ID (answer a message). Each of those is its own
 * compose actor with its own local backup, so a reply never restores what was typed for another message.
 */
export function ComposePage() {
  const search = useSearch();
  const userId = useSelector(sessionActor, selectUserId);
  const params = new URLSearchParams(search);
  const draftId = idParam(params, 'draft');
  const replyToId = draftId === null ? idParam(params, 'reply') : null;
  if (userId === null) return null;
  const backupKey = `compose:${userId}:${draftId ?? (replyToId !== null ? `reply-${replyToId}` : 'new')}`;
  return <ComposeScreen key={backupKey} draftId={draftId} replyToId={replyToId} backupKey={backupKey} />;
}

export function ComposeScreen({ draftId, replyToId, backupKey }: { draftId: number | null; replyToId: number | null; backupKey: string }) {
  const compose = usePageActor(composeMachine, { input: { draftId, replyToId, backupKey } });
  return compose ? <ComposeView compose={compose} /> : <ComposeFrame heading="compose.heading"><FormSkeleton /></ComposeFrame>;
}

function ComposeFrame({ heading, children }: { heading: MessageKey; children: ReactNode }) {
  const t = useT();
  return (
    <section aria-labelledby="page-title" className="mx-auto flex max-w-3xl flex-col gap-4">
      <h1 id="page-title" className="text-2xl font-bold">
        {t(heading)}
      </h1>
      {children}
    </section>
  );
}

function ComposeView({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const loading = useSelector(compose, selectIsLoading);
  const loadFailed = useSelector(compose, selectLoadFailed);
  const editingDraft = useSelector(compose, selectDraftId) !== null;
  const replying = useSelector(compose, selectReplyToId) !== null;

  return (
    <ComposeFrame heading={replying ? 'compose.replyHeading' : editingDraft ? 'compose.draftHeading' : 'compose.heading'}>
      {loadFailed ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border bg-card p-6">
          <p>{t('compose.loadFailed')}</p>
          <Button onClick={() => compose.send({ type: 'compose.retry' })}>{t('compose.retry')}</Button>
        </div>
      ) : loading ? (
        <FormSkeleton />
      ) : (
        <ComposeForm compose={compose} />
      )}
    </ComposeFrame>
  );
}

function FormSkeleton() {
  const t = useT();
  return (
    <div role="status" aria-label={t('compose.loading')} className="flex flex-col gap-4 rounded-lg border bg-card p-6">
      {['h-10', 'h-16', 'h-10', 'h-40', 'h-10'].map((height, i) => (
        <div key={i} className={cn('animate-pulse rounded-md bg-muted', height)} />
      ))}
    </div>
  );
}

// --- the form --------------------------------------------------------------------------------------------

function ComposeForm({ compose }: { compose: ComposeActor }) {
  return (
    // Not a <form>: sending is always an explicit button press (Enter in the title must not send), and
    // Radix checkboxes outside a form need no hidden mirror inputs.
    <div data-slot="compose-form" className="flex flex-col gap-6 rounded-lg border bg-card p-4 sm:p-6">
      <TitleField compose={compose} />
      <RecipientsField compose={compose} />
      <ChannelsField compose={compose} />
      <ContentField compose={compose} />
      <SignaturePreview compose={compose} />
      <AttachmentsField compose={compose} />
      <OptionsField compose={compose} />
      <ScheduleField compose={compose} />
      <EstimateSummary compose={compose} />
      <Actions compose={compose} />
    </div>
  );
}

/** The field's translated error (null when none) and the id its control points at. */
function useFieldError(compose: ComposeActor, field: ComposeField) {
  const t = useT();
  const error = useSelector(compose, (s: ComposeSnapshot) => s.context.errors[field]);
  return { text: error ? t(error.key, error.params) : null, id: `compose-${field}-error` };
}

const describedBy = (...ids: Array<string | false | null | undefined>): string | undefined => {
  const list = ids.filter(Boolean).join(' ');
  return list === '' ? undefined : list;
};

function TitleField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const title = useSelector(compose, selectTitle);
  const locked = useSelector(compose, selectIsLocked);
  const error = useFieldError(compose, 'title');
  return (
    <Field data-invalid={error.text ? true : undefined}>
      <FieldLabel htmlFor="compose-title">{t('compose.field.title')}</FieldLabel>
      <Input
        id="compose-title"
        value={title}
        readOnly={locked}
        autoComplete="off"
        placeholder={t('compose.field.titlePlaceholder')}
        aria-invalid={error.text ? true : undefined}
        aria-describedby={describedBy(error.text && error.id)}
        onChange={(e) => compose.send({ type: 'compose.change', field: 'title', value: e.currentTarget.value })}
      />
      <FieldError id={error.id}>{error.text}</FieldError>
    </Field>
  );
}

function RecipientsField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const picks = useSelector(compose, selectRecipients);
  const locked = useSelector(compose, selectIsLocked);
  const error = useFieldError(compose, 'recipients');
  // The picker loads `GET /recipients` as soon as the form shows, so opening it is instant and the
  // chips can flag empty courses. It starts from the picks compose restored (draft or backup).
  const picker = useActorRef(recipientPickerMachine, { input: { initial: compose.getSnapshot().context.recipients } });
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const subs = [
      picker.on('picker.confirmed', (e) => {
        compose.send({ type: 'compose.setRecipients', picks: e.picks });
        setOpen(false);
      }),
      picker.on('picker.cancelled', () => setOpen(false)),
    ];
    return () => subs.forEach((sub) => sub.unsubscribe());
  }, [picker, compose]);
  const emptyKeys = useSelector(picker, selectEmptyPickKeys);
  // The picker's picks follow the chips (confirm, cancel and remove keep them equal), so its
  // approximate head count is the chips' one; the server's estimate is the exact figure.
  const people = useSelector(picker, selectPeopleCount);
  const empty = new Set(emptyKeys.split(',').filter(Boolean));

  function remove(pick: RecipientPick) {
    compose.send({ type: 'compose.removeRecipient', pick });
    // Keeps the picker's selection (and its empty-course flags) in step with the chips.
    picker.send({ type: 'picker.open', picks: compose.getSnapshot().context.recipients });
  }

  return (
    <div role="group" aria-labelledby="compose-recipients-label" data-slot="field" className="flex flex-col gap-2">
      <Label id="compose-recipients-label" asChild>
        <span>{t('compose.field.recipients')}</span>
      </Label>
      {picks.length > 0 ? (
        <ul aria-label={t('compose.field.recipients')} className="flex flex-wrap gap-2">
          {picks.map((pick) => (
            <RecipientChip key={pickKey(pick)} pick={pick} empty={empty.has(pickKey(pick))} disabled={locked} onRemove={() => remove(pick)} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{t('compose.field.noRecipients')}</p>
      )}
      {picks.length > 0 && people > 0 && <p className="text-xs text-muted-foreground">{t('compose.picker.selected', { count: people })}</p>}
      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (!next) return picker.send({ type: 'picker.cancel' });
          picker.send({ type: 'picker.open', picks });
          setOpen(true);
        }}
      >
        <DialogTrigger asChild>
          <Button
            type="button"
            variant="outline"
            className="self-start"
            disabled={locked}
            aria-invalid={error.text ? true : undefined}
            aria-describedby={describedBy(error.text && error.id)}
          >
            {t(picks.length > 0 ? 'compose.field.editRecipients' : 'compose.field.addRecipients')}
          </Button>
        </DialogTrigger>
        <RecipientPickerContent picker={picker} />
      </Dialog>
      <FieldError id={error.id}>{error.text}</FieldError>
    </div>
  );
}

function RecipientChip({ pick, empty, disabled, onRemove }: { pick: RecipientPick; empty: boolean; disabled: boolean; onRemove: () => void }) {
  const t = useT();
  const label = chipLabel(t, pick);
  return (
    <li data-slot="recipient-chip" data-empty={empty || undefined} className="flex items-center gap-1 rounded-full border bg-secondary py-0.5 pr-1 pl-3 text-sm text-secondary-foreground">
      <span>{label}</span>
      {empty && <Badge variant="warning">{t('compose.emptyCourse')}</Badge>}
      <button
        type="button"
        disabled={disabled}
        aria-label={t('compose.field.removeRecipient', { label })}
        onClick={onRemove}
        className="ml-1 inline-flex size-6 items-center justify-center rounded-full outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:opacity-50"
      >
        <svg aria-hidden viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" className="size-3.5">
          <path d="M18 6 6 18M6 6l12 12" />
        </svg>
      </button>
    </li>
  );
}

/** "3° Básico A · apoderados titulares"; a single student or person is just the name. */
function chipLabel(t: ReturnType<typeof useT>, pick: RecipientPick): string {
  const name = pick.label ?? `${t(`compose.picker.kind.${pick.kind}`)} ${pick.id}`;
  if ('audience' in pick && pick.kind !== 'student') return `${name} · ${t(`compose.picker.chipAudience.${pick.audience}`)}`;
  return name;
}

function ChannelsField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const available = useSelector(compose, selectAvailableChannels);
  const error = useFieldError(compose, 'channels');
  return (
    <fieldset aria-describedby={describedBy('compose-channels-hint', error.text && error.id)} className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{t('compose.field.channels')}</legend>
      {available.length === 0 ? (
        <p role="alert" className="text-sm text-destructive">
          {t('compose.field.channelsNone')}
        </p>
      ) : (
        <div className="flex flex-wrap gap-x-6 gap-y-2">
          {available.map((code) => (
            <ChannelToggle key={code} compose={compose} code={code} invalid={Boolean(error.text)} />
          ))}
        </div>
      )}
      {available.length > 0 && available.length < 4 && (
        <FieldDescription id="compose-channels-hint">{t('compose.field.channelsHint')}</FieldDescription>
      )}
      <FieldError id={error.id}>{error.text}</FieldError>
    </fieldset>
  );
}

function ChannelToggle({ compose, code, invalid }: { compose: ComposeActor; code: ChannelCode; invalid: boolean }) {
  const t = useT();
  const checked = useSelector(compose, (s: ComposeSnapshot) => selectHasChannel(s, code));
  const locked = useSelector(compose, selectIsLocked);
  const id = `compose-channel-${code}`;
  return (
    <div className="flex items-center gap-2">
      <Checkbox
        id={id}
        checked={checked}
        disabled={locked}
        aria-invalid={invalid || undefined}
        onCheckedChange={() => compose.send({ type: 'compose.toggleChannel', code })}
      />
      <Label htmlFor={id}>{t(`messages.channel.${code}`)}</Label>
    </div>
  );
}

function ContentField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const content = useSelector(compose, selectContent);
  const locked = useSelector(compose, selectIsLocked);
  const sms = useSelector(compose, (s: ComposeSnapshot) => selectHasChannel(s, 'sms'));
  const error = useFieldError(compose, 'content');
  return (
    <Field data-invalid={error.text ? true : undefined}>
      <FieldLabel htmlFor="compose-content">{t('compose.field.content')}</FieldLabel>
      <Textarea
        id="compose-content"
        value={content}
        readOnly={locked}
        rows={8}
        placeholder={t('compose.field.contentPlaceholder')}
        aria-invalid={error.text ? true : undefined}
        aria-describedby={describedBy(sms && 'compose-sms-counter', error.text && error.id)}
        onChange={(e) => compose.send({ type: 'compose.change', field: 'content', value: e.currentTarget.value })}
      />
      {sms && <SmsCounter compose={compose} />}
      <FieldError id={error.id}>{error.text}</FieldError>
    </Field>
  );
}

function SmsCounter({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const units = useSelector(compose, selectSmsUnits);
  const limit = useSelector(compose, selectSmsLimit);
  const ok = useSelector(compose, selectSmsOk);
  const unsupported = useSelector(compose, selectSmsUnsupported);
  const signature = useSelector(compose, selectSignatureActive);
  return (
    <div className="flex flex-col gap-1 text-xs text-muted-foreground">
      <p id="compose-sms-counter" data-slot="sms-counter" aria-live="polite" className={cn('font-medium tabular-nums', !ok && 'text-destructive')}>
        {t('compose.sms.counter', { units, limit })}
      </p>
      <p>{t('compose.sms.accents')}</p>
      {signature && <p>{t('compose.sms.signatureDiscount')}</p>}
      {unsupported && <p className="text-destructive">{t('compose.sms.unsupported', { chars: unsupported })}</p>}
    </div>
  );
}

function SignaturePreview({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const signature = useSelector(compose, selectSignature);
  if (signature === null) return null;
  return (
    <div data-slot="signature-preview" className="rounded-md border border-dashed px-3 py-2 text-sm">
      <span className="font-medium">{t('compose.signature.label')}: </span>
      <span className="text-muted-foreground">{t('compose.signature.preview', { signature })}</span>
    </div>
  );
}

function AttachmentsField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const entries = useSelector(compose, selectAttachments);
  const locked = useSelector(compose, selectIsLocked);
  const error = useFieldError(compose, 'attachments');
  const inputId = useId();
  // Purely visual: highlights the drop zone while a file is dragged over it.
  const [over, setOver] = useState(false);

  function onDrop(e: DragEvent<HTMLDivElement>) {
    e.preventDefault();
    setOver(false);
    if (locked) return;
    const files = Array.from(e.dataTransfer.files);
    if (files.length > 0) compose.send({ type: 'attachment.add', files });
  }

  return (
    <div role="group" aria-labelledby="compose-attachments-label" className="flex flex-col gap-2">
      <span id="compose-attachments-label" className="text-sm font-medium">
        {t('compose.attachments.label')}
      </span>
      <div
        data-slot="drop-zone"
        data-over={over || undefined}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn(
          'flex flex-wrap items-center gap-3 rounded-md border border-dashed px-4 py-4 text-sm text-muted-foreground',
          over && 'border-primary bg-accent',
          error.text && 'border-destructive',
        )}
      >
        <span>{t('compose.attachments.drop')}</span>
        <label htmlFor={inputId} className={cn(buttonVariants({ variant: 'outline', size: 'sm' }), 'cursor-pointer has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/40')}>
          {t('compose.attachments.choose')}
          <input
            id={inputId}
            type="file"
            multiple
            disabled={locked}
            className="sr-only"
            aria-invalid={error.text ? true : undefined}
            aria-describedby={describedBy('compose-attachments-limits', error.text && error.id)}
            onChange={(e) => {
              const files = Array.from(e.currentTarget.files ?? []);
              // Cleared so choosing the same file again (after removing it) fires a change.
              e.currentTarget.value = '';
              if (files.length > 0) compose.send({ type: 'attachment.add', files });
            }}
          />
        </label>
      </div>
      <FieldDescription id="compose-attachments-limits">{t('compose.attachments.limits')}</FieldDescription>
      {entries.length > 0 && (
        <ul aria-label={t('compose.attachments.list')} className="flex flex-col gap-2">
          {entries.map((entry) => (
            <AttachmentItem
              key={entry.key}
              attachment={entry.ref}
              onRemove={() => compose.send({ type: 'attachment.remove', key: entry.key })}
              onRetry={() => compose.send({ type: 'attachment.retry', key: entry.key })}
            />
          ))}
        </ul>
      )}
      <FieldError id={error.id}>{error.text}</FieldError>
    </div>
  );
}

function OptionsField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const allowReplies = useSelector(compose, selectAllowReplies);
  const copyToSender = useSelector(compose, selectCopyToSender);
  const locked = useSelector(compose, selectIsLocked);
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">{t('compose.options.label')}</legend>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <div className="flex items-center gap-2">
          <Checkbox
            id="compose-allow-replies"
            checked={allowReplies}
            disabled={locked}
            onCheckedChange={() => compose.send({ type: 'compose.toggleOption', option: 'allowReplies' })}
          />
          <Label htmlFor="compose-allow-replies">{t('compose.options.allowReplies')}</Label>
        </div>
        <div className="flex items-center gap-2">
          <Checkbox
            id="compose-copy-to-sender"
            checked={copyToSender}
            disabled={locked}
            onCheckedChange={() => compose.send({ type: 'compose.toggleOption', option: 'copyToSender' })}
          />
          <Label htmlFor="compose-copy-to-sender">{t('compose.options.copyToSender')}</Label>
        </div>
      </div>
    </fieldset>
  );
}

function ScheduleField({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const date = useSelector(compose, selectScheduleDate);
  const time = useSelector(compose, selectScheduleTime);
  const hasSchedule = useSelector(compose, selectHasSchedule);
  const timezone = useSelector(compose, selectTimezone);
  const locale = useSelector(localeActor, selectLocale);
  const locked = useSelector(compose, selectIsLocked);
  const error = useFieldError(compose, 'schedule');
  const invalid = error.text ? true : undefined;
  const described = describedBy('compose-schedule-zone', error.text && error.id);

  function change(nextDate: string, nextTime: string) {
    if (nextDate === '' && nextTime === '') compose.send({ type: 'compose.clearSchedule' });
    else compose.send({ type: 'compose.setSchedule', date: nextDate, time: nextTime });
  }

  return (
    <fieldset aria-describedby={described} className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium">{t('compose.schedule.label')}</legend>
      <FieldDescription>{t('compose.schedule.hint')}</FieldDescription>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <Label htmlFor="compose-schedule-date">{t('compose.schedule.date')}</Label>
          <Input
            id="compose-schedule-date"
            type="date"
            className="w-44"
            value={date}
            readOnly={locked}
            aria-invalid={invalid}
            aria-describedby={described}
            onChange={(e) => change(e.currentTarget.value, time)}
          />
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor="compose-schedule-time">{t('compose.schedule.time')}</Label>
          <Input
            id="compose-schedule-time"
            type="time"
            className="w-32"
            value={time}
            readOnly={locked}
            aria-invalid={invalid}
            aria-describedby={described}
            onChange={(e) => change(date, e.currentTarget.value)}
          />
        </div>
        {hasSchedule && (
          <Button type="button" variant="ghost" size="sm" disabled={locked} onClick={() => compose.send({ type: 'compose.clearSchedule' })}>
            {t('compose.schedule.clear')}
          </Button>
        )}
      </div>
      <p id="compose-schedule-zone" className="text-xs text-muted-foreground">
        {t('compose.schedule.timezone', { name: formatZoneName(locale, timezone), timezone })}
      </p>
      <FieldError id={error.id}>{error.text}</FieldError>
    </fieldset>
  );
}

/** What the message costs: SMS left this month, and the last server estimate once there is one. */
function EstimateSummary({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const sms = useSelector(compose, (s: ComposeSnapshot) => selectHasChannel(s, 'sms'));
  const smsTotal = useSelector(compose, selectSmsTotal);
  const remaining = useSelector(compose, selectSmsRemaining);
  const limit = useSelector(compose, selectSmsMonthlyLimit);
  const estimate = useSelector(compose, selectEstimate);
  const quota = useFieldError(compose, 'quota');
  const lines: ReactNode[] = [];
  if (estimate) lines.push(<li key="people">{t('compose.estimate.recipients', { count: estimate.recipients })}</li>);
  if (sms && smsTotal !== null && remaining !== null) {
    lines.push(<li key="sms">{t('compose.estimate.sms', { total: smsTotal, remaining })}</li>);
  } else if (sms && remaining !== null && limit !== null) {
    lines.push(<li key="left">{t('compose.estimate.smsLeft', { remaining, limit })}</li>);
  }
  for (const channel of estimate?.channels ?? []) {
    if (channel.missing_address > 0) {
      lines.push(
        <li key={`missing-${channel.code}`}>
          {t('compose.estimate.missing', { channel: t(`messages.channel.${channel.code}`), count: channel.missing_address })}
        </li>,
      );
    }
  }
  if (estimate && estimate.empty_courses.length > 0) {
    lines.push(
      <li key="empty" className="text-foreground">
        {t('compose.emptyCourses', { courses: estimate.empty_courses.map((c) => c.nombre).join(', ') })}
      </li>,
    );
  }
  if (lines.length === 0 && !quota.text) return null;
  return (
    <div id="compose-estimate" data-slot="estimate" className="flex flex-col gap-1 rounded-md bg-muted px-3 py-2 text-sm">
      {lines.length > 0 && <ul className="flex flex-col gap-0.5 text-muted-foreground">{lines}</ul>}
      <FieldError id={quota.id}>{quota.text}</FieldError>
    </div>
  );
}

function Actions({ compose }: { compose: ComposeActor }) {
  const t = useT();
  const busy = useSelector(compose, selectIsBusy);
  const saving = useSelector(compose, selectIsSavingDraft);
  const estimating = useSelector(compose, selectIsEstimating);
  const sending = useSelector(compose, selectIsSending);
  const scheduling = useSelector(compose, selectIsScheduling);
  const failed = useSelector(compose, selectHasFailed);
  const hasSchedule = useSelector(compose, selectHasSchedule);
  const failure = useSelector(compose, selectFailureMessage);
  const invalid = useSelector(compose, (s: ComposeSnapshot) => selectHasError(s, 'quota'));
  const confirming = useSelector(compose, selectIsConfirming);
  const going = estimating || sending || scheduling;
  if (confirming) return <ConfirmSend compose={compose} scheduled={hasSchedule} />;
  return (
    <div className="flex flex-col gap-3 border-t pt-4">
      {failed && (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm">
          <div className="flex flex-1 flex-col">
            <span className="font-medium text-destructive">{t('error.send')}</span>
            {failure && <span className="text-muted-foreground">{failure}</span>}
            <span className="text-muted-foreground">{t('compose.failedHint')}</span>
          </div>
          <Button type="button" size="sm" onClick={() => compose.send({ type: 'compose.retry' })}>
            {t('compose.actions.retry')}
          </Button>
        </div>
      )}
      <div role="group" aria-label={t('compose.actions.label')} aria-busy={busy} className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" disabled={busy} onClick={() => compose.send({ type: 'compose.save' })}>
          {saving && <ButtonSpinner />}
          {t(saving ? 'compose.actions.saving' : 'compose.actions.save')}
        </Button>
        {hasSchedule ? (
          <Button type="button" disabled={busy} aria-invalid={invalid || undefined} onClick={() => compose.send({ type: 'compose.schedule' })}>
            {going && <ButtonSpinner />}
            {t(scheduling ? 'compose.actions.scheduling' : estimating ? 'compose.actions.checking' : 'compose.actions.schedule')}
          </Button>
        ) : (
          <Button type="button" disabled={busy} aria-invalid={invalid || undefined} onClick={() => compose.send({ type: 'compose.send' })}>
            {going && <ButtonSpinner />}
            {t(sending ? 'compose.actions.sending' : estimating ? 'compose.actions.checking' : 'compose.actions.send')}
          </Button>
        )}
      </div>
    </div>
  );
}

/** The cost is on screen (EstimateSummary above): nothing leaves until the author confirms it. */
function ConfirmSend({ compose, scheduled }: { compose: ComposeActor; scheduled: boolean }) {
  const t = useT();
  return (
    <div
      role="alertdialog"
      aria-labelledby="compose-confirm-title"
      aria-describedby="compose-estimate"
      className="flex flex-col gap-3 rounded-md border border-primary/40 bg-accent/40 p-4"
    >
      <h2 id="compose-confirm-title" className="font-semibold">
        {t(scheduled ? 'compose.confirm.scheduleTitle' : 'compose.confirm.sendTitle')}
      </h2>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="outline" onClick={() => compose.send({ type: 'compose.cancel' })}>
          {t('compose.confirm.back')}
        </Button>
        <Button type="button" autoFocus onClick={() => compose.send({ type: 'compose.confirm' })}>
          {t(scheduled ? 'compose.confirm.schedule' : 'compose.confirm.send')}
        </Button>
      </div>
    </div>
  );
}

function ButtonSpinner() {
  return <span aria-hidden className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />;
}
