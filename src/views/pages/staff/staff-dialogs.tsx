// The staff screen's dialogs (staff/staff.ts): roles and device of one account, the question before
// deactivating someone (what happens, and the server's refusal when there is one), and what they leave to
// hand over once deactivated. Each is open while the machine is in its state; closing is the machine's too.
import { ROLE_CODES } from '../../../../shared/codes';
import { STAFF_DEVICES } from '../../../../shared/staff-contract';
import {
  selectDevice,
  selectHandover,
  selectIsBusy,
  selectIsConfirmingDeactivate,
  selectIsEditing,
  selectIsShowingHandover,
  selectProblem,
  selectRoles,
  selectTarget,
  STAFF_ROLES_FIELD_ID,
  type StaffActor,
  type StaffProblem,
} from '../../../machines/staff/staff';
import { useLocaleZone, useT, type Translate } from '../../lib/i18n';
import { formatDateTime } from '../../lib/format';
import { useSelectors } from '../../lib/selectors';
import { Button } from '../../ui/button';
import { Checkbox } from '../../ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, keepFocusOnClose } from '../../ui/dialog';
import { MachineForm } from '../../ui/form';
import { Label } from '../../ui/label';
import { Radio } from '../../ui/radio';

const problemText = (problem: StaffProblem, t: Translate) => ('text' in problem ? problem.text : t(problem.key));

function Problem({ problem, id }: { problem: StaffProblem | null; id: string }) {
  const t = useT();
  if (!problem) return null;
  return (
    <p
      id={id}
      role="alert"
      data-slot="staff-problem"
      className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm text-destructive"
    >
      {problemText(problem, t)}
    </p>
  );
}

export function EditDialog({ actor }: { actor: StaffActor }) {
  const t = useT();
  const { open, target, roles, device, problem, busy } = useSelectors(actor, {
    open: selectIsEditing,
    target: selectTarget,
    roles: selectRoles,
    device: selectDevice,
    problem: selectProblem,
    busy: selectIsBusy,
  });
  const cancel = () => actor.send({ type: 'staff.cancel' });
  return (
    <Dialog open={open && target !== null} onOpenChange={(next) => !next && !busy && cancel()}>
      <DialogContent onCloseAutoFocus={keepFocusOnClose} data-slot="staff-edit">
        <MachineForm
          className="flex min-h-0 flex-col gap-4"
          onSend={() => actor.send({ type: 'staff.save' })}
          aria-busy={busy || undefined}
        >
          <DialogHeader>
            <DialogTitle>{t('staff.edit.title', { name: target?.name ?? '' })}</DialogTitle>
            <DialogDescription>{t('staff.edit.description')}</DialogDescription>
          </DialogHeader>
          <fieldset className="flex flex-col gap-2" aria-describedby={problem ? 'staff-edit-problem' : undefined}>
            <legend className="mb-1 text-sm font-medium">{t('staff.edit.roles')}</legend>
            {ROLE_CODES.map((role, index) => (
              <Label key={role} className="font-normal">
                <Checkbox
                  id={index === 0 ? STAFF_ROLES_FIELD_ID : undefined}
                  checked={roles.includes(role)}
                  disabled={busy}
                  aria-invalid={problem ? true : undefined}
                  onCheckedChange={() => actor.send({ type: 'staff.toggleRole', role })}
                />
                {t(`staff.role.${role}`)}
              </Label>
            ))}
          </fieldset>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">{t('staff.edit.device')}</legend>
            {STAFF_DEVICES.map((value) => (
              <Label key={value} className="font-normal">
                <Radio
                  name="staff-device"
                  value={value}
                  checked={device === value}
                  disabled={busy}
                  onChange={() => actor.send({ type: 'staff.device', device: value })}
                />
                {t(`staff.device.${value}`)}
              </Label>
            ))}
          </fieldset>
          <Problem problem={problem} id="staff-edit-problem" />
          <DialogFooter>
            <Button type="button" variant="outline" disabled={busy} onClick={cancel}>
              {t('staff.edit.cancel')}
            </Button>
            <Button type="submit" aria-disabled={busy || undefined} aria-busy={busy || undefined}>
              {t(busy ? 'staff.edit.saving' : 'staff.edit.save')}
            </Button>
          </DialogFooter>
        </MachineForm>
      </DialogContent>
    </Dialog>
  );
}

export function DeactivateDialog({ actor }: { actor: StaffActor }) {
  const t = useT();
  const { open, target, problem, busy } = useSelectors(actor, {
    open: selectIsConfirmingDeactivate,
    target: selectTarget,
    problem: selectProblem,
    busy: selectIsBusy,
  });
  const cancel = () => !busy && actor.send({ type: 'staff.cancel' });
  return (
    <Dialog open={open && target !== null} onOpenChange={(next) => !next && cancel()}>
      <DialogContent role="alertdialog" onCloseAutoFocus={keepFocusOnClose} data-slot="staff-deactivate">
        <DialogHeader>
          <DialogTitle>{t('staff.deactivate.title', { name: target?.name ?? '' })}</DialogTitle>
          <DialogDescription>{t('staff.deactivate.body')}</DialogDescription>
        </DialogHeader>
        <Problem problem={problem} id="staff-deactivate-problem" />
        <DialogFooter>
          <Button type="button" variant="outline" autoFocus disabled={busy} onClick={cancel}>
            {t('staff.deactivate.cancel')}
          </Button>
          <Button
            type="button"
            variant="destructive"
            aria-disabled={busy || undefined}
            aria-busy={busy || undefined}
            onClick={() => !busy && actor.send({ type: 'staff.confirm' })}
          >
            {t(busy ? 'staff.deactivate.working' : 'staff.deactivate.confirm')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export function HandoverDialog({ actor }: { actor: StaffActor }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const { open, target, handover } = useSelectors(actor, { open: selectIsShowingHandover, target: selectTarget, handover: selectHandover });
  const close = () => actor.send({ type: 'staff.close' });
  const lists = handover?.shared_lists ?? [];
  const messages = handover?.scheduled_messages ?? [];
  return (
    <Dialog open={open && target !== null} onOpenChange={(next) => !next && close()}>
      <DialogContent onCloseAutoFocus={keepFocusOnClose} data-slot="staff-handover">
        <DialogHeader>
          <DialogTitle>{t('staff.handover.title', { name: target?.name ?? '' })}</DialogTitle>
          <DialogDescription>{lists.length + messages.length > 0 ? t('staff.handover.intro') : t('staff.handover.none')}</DialogDescription>
        </DialogHeader>
        <div className="flex min-h-0 flex-col gap-4 overflow-y-auto">
          {lists.length > 0 && (
            <section aria-labelledby="handover-lists" className="flex flex-col gap-1">
              <h3 id="handover-lists" className="text-sm font-semibold">
                {t('staff.handover.lists')}
              </h3>
              <ul className="flex flex-col gap-1 text-sm" data-slot="handover-lists">
                {lists.map((list) => (
                  <li key={list.id}>
                    {list.name} · {t('staff.handover.members', { count: list.users_count })}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {messages.length > 0 && (
            <section aria-labelledby="handover-messages" className="flex flex-col gap-1">
              <h3 id="handover-messages" className="text-sm font-semibold">
                {t('staff.handover.messages')}
              </h3>
              <p className="text-sm text-muted-foreground">{t('staff.handover.messagesNote')}</p>
              <ul className="flex flex-col gap-1 text-sm" data-slot="handover-messages">
                {messages.map((message) => (
                  <li key={message.id}>
                    {message.title || t('staff.handover.untitled')} ·{' '}
                    {t('staff.handover.scheduledAt', { date: formatDateTime(message.scheduled_at, locale, timezone) })}
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
        <DialogFooter>
          <Button type="button" autoFocus onClick={close}>
            {t('staff.handover.close')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
