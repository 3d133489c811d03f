// /recipient-list/:id's selectors: what the screen reads from the list machine (recipient-lists/recipient-list.ts), one
// primitive or one stable reference each; what is offered is `state.can`.
import type { ActorRefFrom } from 'xstate';
import type { RecipientListSummary } from '../../../shared/recipient-lists-contract';
import type { memberEditorMachine } from './member-editor';
import { isSearching, memberRows, type MemberRows } from './member-rows';
import type { RecipientListSnapshot } from './recipient-list';
import type { ScheduledConflict } from './recipient-list-rules';

export type MemberEditorActor = ActorRefFrom<typeof memberEditorMachine>;

export const selectDetailLoading = (s: RecipientListSnapshot): boolean => s.matches('loading');
export const selectDetailFailed = (s: RecipientListSnapshot): boolean => s.matches('failed');
export const selectNotFound = (s: RecipientListSnapshot): boolean => s.context.notFound;
export const selectList = (s: RecipientListSnapshot): RecipientListSummary | null => s.context.list;
export const selectNameDraft = (s: RecipientListSnapshot): string => s.context.nameDraft;
export const selectNameError = (s: RecipientListSnapshot): string | null => s.context.nameError;
export const selectConflict = (s: RecipientListSnapshot): ScheduledConflict | null => s.context.conflict;
export const selectBusy = (s: RecipientListSnapshot): boolean => s.hasTag('busy');
export const selectConfirmingDelete = (s: RecipientListSnapshot): boolean => s.matches({ ready: 'confirmingDelete' });
export const selectDetailPicker = (s: RecipientListSnapshot) => s.children.picker;
export const selectMemberEditor = (s: RecipientListSnapshot): MemberEditorActor | undefined => s.children.memberEditor;
export const selectStaleCount = (s: RecipientListSnapshot): number => s.context.members.filter((member) => member.stale !== null).length;
export const selectCanManage = (s: RecipientListSnapshot): boolean => s.can({ type: 'detail.addMembers' });
export const selectCanDelete = (s: RecipientListSnapshot): boolean => s.can({ type: 'detail.delete' });
export const selectCanRemoveStale = (s: RecipientListSnapshot): boolean => s.can({ type: 'detail.removeStale' });
export const selectRemovingId = (s: RecipientListSnapshot): number | null =>
  s.matches({ ready: 'removingMember' }) ? s.context.memberId : null;
/** The members table: the same object while members, search and slice are unchanged (recipient-lists/member-rows.ts). */
export const selectMemberRows = (s: RecipientListSnapshot): MemberRows =>
  memberRows(s.context.members, s.context.memberQuery, s.context.memberLimit);
export const selectMemberQuery = (s: RecipientListSnapshot): string => s.context.memberQuery;
/** The members table's figures, one number each: shown, found by the search, in the list, added by "Mostrar más". */
export const selectShownCount = (s: RecipientListSnapshot): number => selectMemberRows(s).rows.length;
export const selectMatchCount = (s: RecipientListSnapshot): number => selectMemberRows(s).matches;
export const selectMemberTotal = (s: RecipientListSnapshot): number => selectMemberRows(s).total;
export const selectShowMoreCount = (s: RecipientListSnapshot): number => selectMemberRows(s).more;
/** A search is typed (not blank), and as the count line quotes it (trimmed). */
export const selectIsSearching = (s: RecipientListSnapshot): boolean => isSearching(s.context.memberQuery);
export const selectSearchShown = (s: RecipientListSnapshot): string => s.context.memberQuery.trim();
export const selectCanShowMore = (s: RecipientListSnapshot): boolean => s.can({ type: 'members.showMore' });
