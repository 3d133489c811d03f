// The members of /recipient-list/:id at school scale: a search over name, e-mail, phone, document and course,
// the count of what is shown ("Mostrando 100 de 3.012 miembros"), the rows of the current slice and
// "Mostrar más". What is found and how many are shown are the machine's rules (recipient-lists/member-rows.ts); this file
// renders them and sends what the reader does.
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { RecipientListMember } from '../../../../shared/recipient-lists-contract';
import { MEMBER_SEARCH_ID, memberRowId, type MemberRows } from '../../../machines/recipient-lists/member-rows';
import { memberEditButtonId } from '../../../machines/recipient-lists/recipient-list-rules';
import type { recipientListMachine, RecipientListSnapshot } from '../../../machines/recipient-lists/recipient-list';
import {
  selectCanShowMore,
  selectIsSearching,
  selectMatchCount,
  selectMemberQuery,
  selectMemberRows,
  selectMemberTotal,
  selectRemovingId,
  selectSearchShown,
  selectShowMoreCount,
  selectShownCount,
} from '../../../machines/recipient-lists/recipient-list-selectors';
import { DeviceDot } from '../../lib/device-status';
import { useLocale, useT, type Translate } from '../../lib/i18n';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { ListEmpty } from '../../ui/list-page';
import { SearchInput } from '../../ui/search-input';
import { useSelectors } from '../../lib/selectors';
import { formatPhone } from '../../../../shared/phone-format';
import { hasAnyRole } from '../../../../shared/codes';
import { PEOPLE_EDITORS } from '../../../../shared/person-rules';
import type { SessionSnapshot } from '../../../machines/session/session';
import { sessionActor } from '../../actors';

/** A signed-in user who may not change people's records (decision 0135): their rows say «Ver datos». */
const selectOnlyReads = (s: SessionSnapshot): boolean =>
  s.context.user !== null &&
  !hasAnyRole(
    s.context.user.roles.map((role) => role.codigo),
    PEOPLE_EDITORS,
  );

type DetailActor = ActorRefFrom<typeof recipientListMachine>;

const selectRows = (s: RecipientListSnapshot): MemberRows['rows'] => selectMemberRows(s).rows;
const selectOwner = (s: RecipientListSnapshot): boolean => s.context.list?.is_owner === true;

/** 3012 → "3.012" (es-CL) / "3,012" (es-MX), in the locale shown. */
function useCount(): (n: number) => string {
  const locale = useLocale();
  return (n: number) => new Intl.NumberFormat(locale).format(n);
}

export function MembersTable({ actor }: { actor: DetailActor }) {
  const t = useT();
  const total = useSelector(actor, selectMemberTotal);
  if (total === 0) return <ListEmpty live={false}>{t('recipientLists.membersEmpty')}</ListEmpty>;
  return (
    <section aria-labelledby="members-heading" data-slot="members" className="flex flex-col gap-3">
      <h2 id="members-heading" className="sr-only">
        {t('recipientLists.members')}
      </h2>
      <MemberSearch actor={actor} />
      <MemberCount actor={actor} />
      <MemberList actor={actor} />
      <ShowMore actor={actor} />
    </section>
  );
}

function MemberSearch({ actor }: { actor: DetailActor }) {
  const t = useT();
  const query = useSelector(actor, selectMemberQuery);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={MEMBER_SEARCH_ID} className="text-sm font-medium">
        {t('recipientLists.memberSearch')}
      </label>
      <SearchInput
        id={MEMBER_SEARCH_ID}
        className="w-full sm:w-96"
        autoComplete="off"
        spellCheck={false}
        placeholder={t('recipientLists.memberSearchHint')}
        aria-controls="members-list"
        aria-describedby="members-count"
        value={query}
        onSearch={(text) => actor.send({ type: 'members.search', query: text })}
      />
    </div>
  );
}

/** "Mostrando 100 de 3.012 miembros", or of those the search finds; read out as it changes. */
function MemberCount({ actor }: { actor: DetailActor }) {
  const t = useT();
  const count = useCount();
  const { shown, matches, total, searching, query } = useSelectors(actor, {
    shown: selectShownCount,
    matches: selectMatchCount,
    total: selectMemberTotal,
    searching: selectIsSearching,
    query: selectSearchShown,
  });
  return (
    <p id="members-count" role="status" data-slot="members-count" className="text-sm text-muted-foreground">
      {!searching
        ? t('recipientLists.membersShowing', { count: total, shown: count(shown), total: count(total) })
        : matches === 0
          ? t('recipientLists.membersNoMatch', { q: query })
          : t('recipientLists.membersMatching', { count: matches, shown: count(shown), matches: count(matches), total: count(total) })}
    </p>
  );
}

function MemberList({ actor }: { actor: DetailActor }) {
  const t = useT();
  const rows = useSelector(actor, selectRows);
  if (rows.length === 0)
    return (
      <div className="flex flex-col items-start gap-2 rounded-lg border border-dashed bg-card p-6">
        <Button variant="outline" size="sm" onClick={() => actor.send({ type: 'members.search', query: '' })}>
          {t('recipientLists.memberSearchClear')}
        </Button>
      </div>
    );
  return (
    <ul id="members-list" aria-label={t('recipientLists.members')} className="flex flex-col divide-y rounded-lg border bg-card">
      {rows.map((member) => (
        <MemberRow key={member.id} actor={actor} member={member} />
      ))}
    </ul>
  );
}

function ShowMore({ actor }: { actor: DetailActor }) {
  const t = useT();
  const count = useCount();
  const { canShowMore, more } = useSelectors(actor, { canShowMore: selectCanShowMore, more: selectShowMoreCount });
  if (!canShowMore) return null;
  return (
    <Button variant="outline" className="self-center" onClick={() => actor.send({ type: 'members.showMore' })}>
      {t('recipientLists.membersShowMore', { count: more, shown: count(more) })}
    </Button>
  );
}

/**
 * What a member is: a guardian names the child they are in the list for and the child's course ("Apoderado
 * titular de Óscar Núñez Núñez · 3° Básico A"), so two guardians of the same name, or one guardian of two
 * children, are told apart; others say their type, their role or cargo, and a student their course.
 */
function roleText(t: Translate, member: RecipientListMember): string {
  const course = member.course ? ` · ${member.course}` : '';
  if (member.user_type === 'apoderado' && member.student_name) {
    return `${t('recipientLists.memberOf', { role: member.nombre_rol, student: member.student_name })}${course}`;
  }
  const type = t(`recipientLists.userType.${member.user_type}`);
  const role = member.nombre_rol && member.nombre_rol.toLowerCase() !== member.user_type ? ` · ${member.nombre_rol}` : '';
  return `${type}${role}${course}`;
}

function MemberRow({ actor, member }: { actor: DetailActor; member: RecipientListMember }) {
  const t = useT();
  const { canEdit, canRemove, removing, owner } = useSelectors(actor, {
    canEdit: (s) => s.can({ type: 'detail.editMember', memberId: member.id }),
    canRemove: (s) => s.can({ type: 'detail.removeMember', memberId: member.id }),
    removing: (s) => selectRemovingId(s) === member.id,
    owner: selectOwner,
  });
  const onlyReads = useSelector(sessionActor, selectOnlyReads);
  const none = t('recipientLists.noData');
  return (
    <li
      id={memberRowId(member.id)}
      tabIndex={-1}
      data-slot="member-row"
      data-user-type={member.user_type}
      data-stale={member.stale ?? undefined}
      className="flex flex-col gap-2 p-3 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/30 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex min-w-0 flex-col gap-0.5">
        <span className="flex flex-wrap items-center gap-2 font-medium">
          {member.device_status && <DeviceDot status={member.device_status} />}
          <span data-slot="member-name" className="break-words">
            {member.name}
          </span>
          {member.stale && <Badge variant="warning">{t(`recipientLists.staleReason.${member.stale}`)}</Badge>}
        </span>
        <span data-slot="member-role" className="text-sm text-muted-foreground">
          {roleText(t, member)}
        </span>
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-sm">
          <dt className="text-muted-foreground">{t('recipientLists.column.email')}</dt>
          <dd className="break-all">{member.email ?? none}</dd>
          <dt className="text-muted-foreground">{t('recipientLists.column.phone')}</dt>
          <dd data-slot="member-phone">{member.phone ? formatPhone(member.phone) : none}</dd>
          {member.dni && (
            <>
              <dt className="text-muted-foreground">{t('recipientLists.column.document')}</dt>
              <dd data-slot="member-document">{member.dni}</dd>
            </>
          )}
        </dl>
      </div>
      {owner && (
        <div className="flex flex-wrap gap-2">
          <Button
            id={memberEditButtonId(member.id)}
            size="sm"
            variant="outline"
            disabled={!canEdit}
            aria-label={t(onlyReads ? 'recipientLists.viewMember' : 'recipientLists.editMember', { name: member.name })}
            onClick={() => actor.send({ type: 'detail.editMember', memberId: member.id })}
          >
            {t(onlyReads ? 'recipientLists.view' : 'recipientLists.edit')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            disabled={!canRemove || removing}
            aria-label={t('recipientLists.removeMember', { name: member.name })}
            onClick={() => actor.send({ type: 'detail.removeMember', memberId: member.id })}
          >
            {t('recipientLists.remove')}
          </Button>
        </div>
      )}
    </li>
  );
}
