// /settings/staff (administrators): the school's staff, searched, filtered by state, sorted and paged, each
// account with what may be done to it, and «Invitar personal». The machine is staff/staff.ts; the dialogs are
// staff-dialogs.tsx and invite-dialog.tsx.
import { useSelector } from '@xstate/react';
import { ROLE_CODES } from '../../../../shared/codes';
import {
  SORT_ORDERS,
  STAFF_SORTS,
  STAFF_STATES,
  type SortOrder,
  type StaffMember,
  type StaffSort,
} from '../../../../shared/staff-contract';
import {
  selectHasCrashed,
  selectInvite,
  selectSortKey,
  selectStaffItems,
  selectStaffList,
  selectStaffQ,
  selectStateFilter,
  selectWorkingId,
  STAFF_INVITE_BUTTON_ID,
  staffMachine,
  staffRowId,
  type StaffActor,
  type StaffListActor,
  type StaffSnapshot,
} from '../../../machines/staff/staff';
import { useLocaleZone, useT, type Translate } from '../../lib/i18n';
import { formatDateTime, formatDay } from '../../lib/format';
import { usePageActor } from '../../lib/page-actor';
import { useSelectors } from '../../lib/selectors';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ListBody, ListEmpty, ListEnd, ListTotal, useListPhase } from '../../ui/list-page';
import { ListFailure, ListSkeleton } from '../../ui/list-state';
import { FilterSelect, SelectField } from '../../ui/native-select';
import { Fact } from '../../ui/fact';
import { SearchInput } from '../../ui/search-input';
import { SettingsShell } from '../settings/shell';
import { DeactivateDialog, EditDialog, HandoverDialog } from './staff-dialogs';
import { InviteDialog } from './invite-dialog';

export function SettingsStaffPage() {
  const actor = usePageActor(staffMachine, { input: {} });
  const t = useT();
  return (
    <SettingsShell className="max-w-5xl">
      {actor ? <StaffScreen actor={actor} /> : <ListSkeleton label={t('staff.loading')} rows={4} />}
    </SettingsShell>
  );
}

const SORT_KEYS = STAFF_SORTS.flatMap((sort) => SORT_ORDERS.map((order) => `${sort}_${order}` as const));
const sortOf = (key: string): { sort: StaffSort; order: SortOrder } => {
  const order = key.endsWith('_desc') ? 'desc' : 'asc';
  const sort = STAFF_SORTS.find((candidate) => key === `${candidate}_${order}`) ?? 'name';
  return { sort, order };
};

function StaffScreen({ actor }: { actor: StaffActor }) {
  const t = useT();
  const { list, crashed, invite } = useSelectors(actor, { list: selectStaffList, crashed: selectHasCrashed, invite: selectInvite });
  return (
    <section aria-labelledby="staff-heading" className="flex min-w-0 flex-col gap-4" data-slot="staff">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h2 id="staff-heading" className="text-xl font-semibold">
            {t('staff.heading')}
          </h2>
          <p className="text-sm text-muted-foreground">{t('staff.intro')}</p>
          {list && !crashed && <ListTotal list={list} text={(count) => t('staff.total', { count })} />}
        </div>
        <Button id={STAFF_INVITE_BUTTON_ID} onClick={() => actor.send({ type: 'staff.invite' })}>
          {t('staff.invite')}
        </Button>
      </header>
      <Filters actor={actor} />
      {list && !crashed ? (
        <StaffList actor={actor} list={list} />
      ) : (
        <ListFailure message={t('staff.loadFailed')} retryLabel={t('staff.retry')} onRetry={() => actor.send({ type: 'staff.retry' })} />
      )}
      <EditDialog actor={actor} />
      <DeactivateDialog actor={actor} />
      <HandoverDialog actor={actor} />
      {invite && <InviteDialog actor={invite} onClose={() => invite.send({ type: 'invite.close' })} />}
    </section>
  );
}

function Filters({ actor }: { actor: StaffActor }) {
  const t = useT();
  const { q, state, sortKey } = useSelectors(actor, { q: selectStaffQ, state: selectStateFilter, sortKey: selectSortKey });
  return (
    <div role="group" aria-label={t('staff.search')} className="flex flex-wrap items-end gap-3" data-slot="staff-filters">
      <SearchInput
        aria-label={t('staff.search')}
        placeholder={t('staff.search')}
        value={q}
        onSearch={(text) => actor.send({ type: 'staff.search', q: text })}
      />
      <FilterSelect
        id="staff-state"
        label={t('staff.filter.label')}
        value={state}
        values={STAFF_STATES}
        allLabel={t('staff.filter.all')}
        labelOf={(value) => t(`staff.filter.${value}`)}
        onChange={(value) => actor.send({ type: 'staff.filter', state: value })}
      />
      <SelectField
        id="staff-sort"
        label={t('staff.sort.label')}
        value={sortKey}
        onChange={(event) => actor.send({ type: 'staff.sort', ...sortOf(event.currentTarget.value) })}
      >
        {SORT_KEYS.map((key) => (
          <option key={key} value={key}>
            {t(`staff.sort.${key}`)}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

function StaffList({ actor, list }: { actor: StaffActor; list: StaffListActor }) {
  const t = useT();
  const phase = useListPhase(list);
  const reload = () => list.send({ type: 'list.reload' });
  return (
    <ListBody
      phase={phase}
      skeleton={<ListSkeleton label={t('staff.loading')} rows={4} />}
      failure={<ListFailure message={t('staff.loadFailed')} retryLabel={t('staff.retry')} onRetry={reload} />}
      empty={<ListEmpty>{t('staff.empty')}</ListEmpty>}
    >
      <Rows actor={actor} />
      <ListEnd list={list} staleText={t('staff.staleFailed')} retryLabel={t('staff.retry')} moreLabel={t('staff.more')} />
    </ListBody>
  );
}

function Rows({ actor }: { actor: StaffActor }) {
  const items = useSelector(actor, selectStaffItems);
  return (
    <ul className="flex flex-col gap-2" data-slot="staff-rows">
      {items.map((member) => (
        <Row key={member.id} actor={actor} member={member} />
      ))}
    </ul>
  );
}

const stateVariant = { invited: 'warning', active: 'secondary', deactivated: 'outline' } as const;

/** Roles in the contract's order, by their names. */
const rolesText = (member: StaffMember, t: Translate) =>
  ROLE_CODES.filter((role) => member.roles.includes(role))
    .map((role) => t(`staff.role.${role}`))
    .join(', ');

function invitationText(member: StaffMember, t: Translate, locale: string, timezone: string): string | null {
  if (member.state !== 'invited' || member.invitation_state === null) return null;
  if (member.invitation_state === 'pending' && member.invitation_expires_at)
    return t('staff.invitation.pending', { date: formatDay(member.invitation_expires_at, locale, timezone) });
  return t(member.invitation_state === 'expired' ? 'staff.invitation.expired' : 'staff.invitation.revoked');
}

function Row({ actor, member }: { actor: StaffActor; member: StaffMember }) {
  const t = useT();
  const { locale, timezone } = useLocaleZone();
  const invitation = invitationText(member, t, locale, timezone);
  return (
    <li data-slot="staff-row" data-state={member.state} className="flex flex-col gap-3 rounded-lg border bg-card p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-col gap-0.5">
          <h3 id={staffRowId(member.id)} tabIndex={-1} className="flex flex-wrap items-center gap-2 font-medium outline-none">
            <span className="break-words">{member.name}</span>
            {member.is_self && <Badge variant="outline">{t('staff.you')}</Badge>}
          </h3>
          <span className="text-sm break-all text-muted-foreground">{member.email}</span>
        </div>
        <Badge variant={stateVariant[member.state]}>{t(`staff.state.${member.state}`)}</Badge>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <Fact label={t('staff.field.roles')}>{rolesText(member, t)}</Fact>
        <Fact label={t('staff.field.device')}>{t(`staff.device.${member.device}`)}</Fact>
        <Fact label={t('staff.field.access')}>{t(member.access ? 'staff.access.yes' : 'staff.access.no')}</Fact>
        <Fact label={t('staff.field.lastSignIn')}>
          {member.last_sign_in_at ? formatDateTime(member.last_sign_in_at, locale, timezone) : t('staff.lastSignIn.never')}
        </Fact>
      </dl>
      {invitation && <p className="text-sm text-muted-foreground">{invitation}</p>}
      <RowActions actor={actor} member={member} />
    </li>
  );
}

/** What this row offers: each event the machine would take for it now. */
const offers = (id: number) => ({
  edit: (s: StaffSnapshot) => s.can({ type: 'staff.edit', id }),
  deactivate: (s: StaffSnapshot) => s.can({ type: 'staff.deactivate', id }),
  reactivate: (s: StaffSnapshot) => s.can({ type: 'staff.reactivate', id }),
  resend: (s: StaffSnapshot) => s.can({ type: 'staff.resend', id }),
  revoke: (s: StaffSnapshot) => s.can({ type: 'staff.revoke', id }),
  working: (s: StaffSnapshot) => selectWorkingId(s) === id,
});

function RowActions({ actor, member }: { actor: StaffActor; member: StaffMember }) {
  const t = useT();
  const { edit, deactivate, reactivate, resend, revoke, working } = useSelectors(actor, offers(member.id));
  const id = member.id;
  if (working)
    return (
      <p role="status" className="text-sm text-muted-foreground">
        {t('staff.actions.working')}
      </p>
    );
  if (!(edit || deactivate || reactivate || resend || revoke)) return null;
  return (
    <div role="group" aria-label={t('staff.actions.label', { name: member.name })} className="flex flex-wrap gap-2">
      {edit && (
        <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'staff.edit', id })}>
          {t('staff.actions.edit')}
        </Button>
      )}
      {resend && (
        <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'staff.resend', id })}>
          {t('staff.actions.resend')}
        </Button>
      )}
      {revoke && (
        <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'staff.revoke', id })}>
          {t('staff.actions.revoke')}
        </Button>
      )}
      {reactivate && (
        <Button size="sm" variant="outline" onClick={() => actor.send({ type: 'staff.reactivate', id })}>
          {t('staff.actions.reactivate')}
        </Button>
      )}
      {deactivate && (
        <Button size="sm" variant="destructive" onClick={() => actor.send({ type: 'staff.deactivate', id })}>
          {t('staff.actions.deactivate')}
        </Button>
      )}
    </div>
  );
}
