// The recipient picker's selectors (SPEC §2, §5): what the dialog and the chips read from the picker
// machine (compose/recipient-picker.ts).
import type { Audience, RecipientAppointment, RecipientPick } from '../../../shared/compose-contract';
import { emptyGroups, pickKey, type IndexItem, type PickerTab } from '../../../shared/recipient-index';
import type { RecipientListsActor, RecipientPickerSnapshot } from './recipient-picker';

// One primitive each, or a reference that only changes when its value does.

/** The dialog is open (the page's `Dialog` follows this). */
export const selectIsOpen = (snapshot: RecipientPickerSnapshot): boolean => snapshot.matches({ dialog: 'open' });
export const selectIsLoading = (snapshot: RecipientPickerSnapshot): boolean => snapshot.matches({ recipients: 'loading' });
export const selectHasFailed = (snapshot: RecipientPickerSnapshot): boolean => snapshot.matches({ recipients: 'failed' });
export const selectIsReady = (snapshot: RecipientPickerSnapshot): boolean => snapshot.matches({ recipients: 'ready' });
/** The dialog has rows to show: the whole directory, or meanwhile its levels and courses. */
export const selectCanBrowse = (snapshot: RecipientPickerSnapshot): boolean => snapshot.context.index !== null;
export const selectTab = (snapshot: RecipientPickerSnapshot): PickerTab => snapshot.context.tab;
export const selectQuery = (snapshot: RecipientPickerSnapshot): string => snapshot.context.query;
export const selectAudience = (snapshot: RecipientPickerSnapshot): Audience | null => snapshot.context.filters.audience;
export const selectCargoId = (snapshot: RecipientPickerSnapshot): number | null => snapshot.context.filters.cargoId;
/** Rows of the current tab (≤ 20); the same array until the tab, query, filter or data change. */
export const selectPreview = (snapshot: RecipientPickerSnapshot): IndexItem[] => snapshot.context.preview;
export const selectTotal = (snapshot: RecipientPickerSnapshot): number => snapshot.context.total;
export const selectPicks = (snapshot: RecipientPickerSnapshot): RecipientPick[] => snapshot.context.picks;
export const selectPickCount = (snapshot: RecipientPickerSnapshot): number => snapshot.context.picks.length;
export const selectPeopleCount = (snapshot: RecipientPickerSnapshot): number => snapshot.context.people;
/** The count is the server's estimate for this selection (no "aprox."). */
export const selectPeopleExact = (snapshot: RecipientPickerSnapshot): boolean => snapshot.context.exact;
/** Cargo filter options (staff tab). */
export const selectAppointments = (snapshot: RecipientPickerSnapshot): RecipientAppointment[] =>
  snapshot.context.recipients?.appointments ?? NO_APPOINTMENTS;
const NO_APPOINTMENTS: RecipientAppointment[] = [];
/** The saved lists tab's list, once the tab has been opened (the view pages and retries it). */
export const selectLists = (snapshot: RecipientPickerSnapshot): RecipientListsActor | null => snapshot.children.lists ?? null;
/** Whether `pick` is selected: `useSelector(ref, (s) => selectIsPicked(s, pick))`. */
export const selectIsPicked = (snapshot: RecipientPickerSnapshot, pick: RecipientPick): boolean => {
  const key = pickKey(pick);
  return snapshot.context.picks.some((picked) => pickKey(picked) === key);
};
/** Picked courses/levels/electives with no students (flagged, once the people are there), as `kind:id` keys joined by commas. */
export const selectEmptyPickKeys = (snapshot: RecipientPickerSnapshot): string =>
  snapshot.context.recipients && snapshot.context.index
    ? emptyGroups(snapshot.context.index, snapshot.context.picks).map(pickKey).join(',')
    : '';
