// /recipient-list/:id: one list, its members with their contact data and device colour, and what its owner
// may do (rename, share, add members with the picker, remove, the stale members' "Quitar", edit a member's
// contact data, delete to the trash). A colleague's shared list shows none of those: `state.can` says so.
import { useSelector } from '@xstate/react';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { LIST_NAME_MAX } from '../../../../shared/recipient-lists-contract';
import type { PhonePrefix } from '../../../machines/recipient-lists/member-editor';
import { recipientListMachine, type RecipientListSnapshot } from '../../../machines/recipient-lists/recipient-list';
import {
  selectCanDelete,
  selectCanManage,
  selectCanRemoveStale,
  selectConfirmingDelete,
  selectConflict,
  selectBusy,
  selectDetailFailed,
  selectDetailLoading,
  selectDetailPicker,
  selectList,
  selectMemberEditor,
  selectNameDraft,
  selectNameError,
  selectNotFound,
  selectStaleCount,
} from '../../../machines/recipient-lists/recipient-list-selectors';
import type { SessionSnapshot } from '../../../machines/session/session';
import type { MessageKey } from '../../../i18n';
import { hasText } from '../../../i18n';
import { sessionActor } from '../../actors';
import { DeviceLegend } from '../../lib/device-status';
import { useT } from '../../lib/i18n';
import { usePageActor } from '../../lib/page-actor';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Checkbox } from '../../ui/checkbox';
import { ConfirmPanel } from '../../ui/confirm-panel';
import { Dialog, DialogTrigger } from '../../ui/dialog';
import { FieldError } from '../../ui/field';
import { Input } from '../../ui/input';
import { Label } from '../../ui/label';
import { RecipientPickerContent } from '../compose/recipient-picker';
import { MemberEditorDialog } from './member-editor-dialog';
import { MembersTable } from './members-table';
import { ListSkeleton, LoadFailure } from '../../ui/list-state';
import { MachineForm } from '../../ui/form';
import { selectIsOpen } from '../../../machines/compose/recipient-picker-selectors';
import { DELETE_BUTTON_ID, RENAME_FIELD_ID } from '../../../machines/recipient-lists/recipient-list-rules';
import { useSelectors } from '../../lib/selectors';

type DetailActor = ActorRefFrom<typeof recipientListMachine>;

const selectPrefix = (s: SessionSnapshot): PhonePrefix => (s.context.user?.domain === 'mx' ? '+52' : '+56');
const selectIsIdle = (s: RecipientListSnapshot): boolean => s.matches({ ready: 'idle' });
const selectCanUse = (s: RecipientListSnapshot): boolean => s.can({ type: 'detail.use' });

export function RecipientListPage({ id }: { id: number }) {
  const t = useT();
  const defaultPrefix = useSelector(sessionActor, selectPrefix);
  const actor = usePageActor(recipientListMachine, { input: { id, defaultPrefix } });
  return actor ? <ListScreen actor={actor} /> : <ListSkeleton label={t('recipientLists.detailLoading')} rows={4} />;
}

function ListScreen({ actor }: { actor: DetailActor }) {
  const t = useT();
  const { loading, failed, notFound, list } = useSelectors(actor, {
    loading: selectDetailLoading,
    failed: selectDetailFailed,
    notFound: selectNotFound,
    list: selectList,
  });
  if (loading) return <ListSkeleton label={t('recipientLists.detailLoading')} rows={4} />;
  if (failed || !list)
    return (
      <section aria-labelledby="page-title" className="mx-auto flex max-w-5xl flex-col gap-4">
        <h1 id="page-title" className="text-2xl font-bold">
          {t('pages.recipientList')}
        </h1>
        <LoadFailure message={t(notFound ? 'recipientLists.notFound' : 'recipientLists.detailFailed')}>
          {notFound ? (
            <Button asChild variant="outline">
              <Link href="/recipient-lists">{t('recipientLists.backToLists')}</Link>
            </Button>
          ) : (
            <Button onClick={() => actor.send({ type: 'detail.retry' })}>{t('recipientLists.retry')}</Button>
          )}
        </LoadFailure>
      </section>
    );
  return (
    <section aria-labelledby="page-title" className="mx-auto flex max-w-5xl flex-col gap-4">
      <Header actor={actor} />
      <Conflict actor={actor} />
      <DeleteConfirm actor={actor} />
      <StaleBanner actor={actor} />
      <MembersTable actor={actor} />
      <DeviceLegend />
      <Editor actor={actor} />
    </section>
  );
}

function Header({ actor }: { actor: DetailActor }) {
  const t = useT();
  const { list, canManage, canDelete, canUse, busy, idle, picker } = useSelectors(actor, {
    list: selectList,
    canManage: selectCanManage,
    canDelete: selectCanDelete,
    canUse: selectCanUse,
    busy: selectBusy,
    idle: selectIsIdle,
    picker: selectDetailPicker,
  });
  if (!list) return null;
  return (
    <header className="flex flex-col gap-3">
      <Button asChild variant="link" size="sm" className="self-start px-0">
        <Link href="/recipient-lists">{t('recipientLists.backToLists')}</Link>
      </Button>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-1">
          <h1 id="page-title" className="text-2xl font-bold break-words">
            {list.name}
          </h1>
          <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            {t('recipientLists.members', { count: list.users_count })}
            {list.shared && <Badge variant="secondary">{t('recipientLists.sharedBadge')}</Badge>}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {canUse && <Button onClick={() => actor.send({ type: 'detail.use' })}>{t('recipientLists.use')}</Button>}
          {picker && (canManage || !idle) && list.is_owner && <AddMembers actor={actor} disabled={!canManage || busy} />}
          {list.is_owner && (
            <Button
              id={DELETE_BUTTON_ID}
              variant="destructive"
              disabled={!canDelete || busy}
              onClick={() => actor.send({ type: 'detail.delete' })}
            >
              {t('recipientLists.delete')}
            </Button>
          )}
        </div>
      </div>
      {list.is_owner ? (
        <OwnerSettings actor={actor} />
      ) : (
        <p className="rounded-md border bg-muted/40 p-3 text-sm">{t('recipientLists.readOnly', { name: list.owner_name })}</p>
      )}
    </header>
  );
}

function AddMembers({ actor, disabled }: { actor: DetailActor; disabled: boolean }) {
  const t = useT();
  const picker = useSelector(actor, selectDetailPicker);
  const open = useSelector(picker!, selectIsOpen);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? actor.send({ type: 'detail.addMembers' }) : picker?.send({ type: 'picker.cancel' }))}
    >
      <DialogTrigger asChild>
        <Button variant="outline" disabled={disabled}>
          {t('recipientLists.addMembers')}
        </Button>
      </DialogTrigger>
      {picker && <RecipientPickerContent picker={picker} />}
    </Dialog>
  );
}

/** Rename and share: the owner's settings. The name typed is the machine's draft: kept until saved, and across reloads. */
function OwnerSettings({ actor }: { actor: DetailActor }) {
  const t = useT();
  const { list, error, busy, name } = useSelectors(actor, {
    list: selectList,
    error: selectNameError,
    busy: selectBusy,
    name: selectNameDraft,
  });
  if (!list) return null;
  const errorText = error === null ? null : hasText(error) ? t(error as MessageKey) : error;
  return (
    <div className="flex flex-col gap-3 rounded-lg border bg-card p-4 sm:flex-row sm:items-end sm:justify-between">
      <MachineForm className="flex flex-1 flex-col gap-1.5" onSend={() => actor.send({ type: 'detail.rename' })}>
        <Label htmlFor={RENAME_FIELD_ID}>{t('recipientLists.rename')}</Label>
        <div className="flex gap-2">
          <Input
            id={RENAME_FIELD_ID}
            value={name}
            maxLength={LIST_NAME_MAX}
            aria-invalid={errorText ? true : undefined}
            aria-describedby={errorText ? `${RENAME_FIELD_ID}-error` : undefined}
            onChange={(e) => actor.send({ type: 'detail.changeName', name: e.currentTarget.value })}
          />
          <Button type="submit" variant="outline" disabled={busy}>
            {t('recipientLists.renameSave')}
          </Button>
        </div>
        <FieldError id={`${RENAME_FIELD_ID}-error`}>{errorText}</FieldError>
      </MachineForm>
      <div className="flex items-start gap-2 sm:max-w-xs">
        <Checkbox
          id="recipient-list-shared"
          checked={list.shared}
          disabled={busy}
          aria-describedby="recipient-list-shared-hint"
          onCheckedChange={(checked) => actor.send({ type: 'detail.share', shared: checked === true })}
        />
        <div className="flex flex-col gap-0.5">
          <Label htmlFor="recipient-list-shared">{t('recipientLists.share')}</Label>
          <p id="recipient-list-shared-hint" className="text-xs text-muted-foreground">
            {t('recipientLists.shareHint')}
          </p>
        </div>
      </div>
    </div>
  );
}

function Conflict({ actor }: { actor: DetailActor }) {
  const t = useT();
  const conflict = useSelector(actor, selectConflict);
  if (!conflict) return null;
  return (
    <div role="alert" data-slot="list-conflict" className="flex flex-col gap-2 rounded-lg border border-warning/60 bg-warning/10 p-4">
      <p className="font-semibold">{t('recipientLists.scheduledTitle')}</p>
      <p>{conflict.text}</p>
      <p className="text-sm text-muted-foreground">{t('recipientLists.scheduledHint')}</p>
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm">
          <Link href={conflict.messageId ? `/scheduled/message/${conflict.messageId}` : '/scheduled'}>
            {t('recipientLists.scheduledLink')}
          </Link>
        </Button>
        <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'detail.dismissConflict' })}>
          {t('recipientLists.dismiss')}
        </Button>
      </div>
    </div>
  );
}

function DeleteConfirm({ actor }: { actor: DetailActor }) {
  const t = useT();
  const { open, list } = useSelectors(actor, { open: selectConfirmingDelete, list: selectList });
  if (!open || !list) return null;
  return (
    <ConfirmPanel
      title={t('recipientLists.deleteQuestion', { name: list.name })}
      description={t('recipientLists.deleteHint')}
      confirmLabel={t('recipientLists.deleteConfirm')}
      cancelLabel={t('recipientLists.cancel')}
      destructive
      className="rounded-lg border-destructive/40 bg-destructive/5 p-4"
      onConfirm={() => actor.send({ type: 'detail.confirm' })}
      onCancel={() => actor.send({ type: 'detail.cancel' })}
    />
  );
}

function StaleBanner({ actor }: { actor: DetailActor }) {
  const t = useT();
  const { count, canRemove, busy } = useSelectors(actor, { count: selectStaleCount, canRemove: selectCanRemoveStale, busy: selectBusy });
  if (count === 0) return null;
  return (
    <div
      role="status"
      data-slot="stale-banner"
      className="flex flex-col gap-2 rounded-lg border border-warning/60 bg-warning/10 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <p>{t('recipientLists.staleBanner', { count })}</p>
      {canRemove && (
        <Button size="sm" variant="outline" disabled={busy} onClick={() => actor.send({ type: 'detail.removeStale' })}>
          {t('recipientLists.removeStale')}
        </Button>
      )}
    </div>
  );
}

function Editor({ actor }: { actor: DetailActor }) {
  const editor = useSelector(actor, selectMemberEditor);
  return editor ? <MemberEditorDialog editor={editor} /> : null;
}
