// What the news compose views read (news/compose.ts), one primitive per selector (arrays only where they
// are the context's own, unchanged until edited).
import type { NewsCategory } from '../../../shared/news-contract';
import type { RecipientLevel } from '../../../shared/compose-contract';
import type { AudienceCourse } from '../../services/news/compose';
import type { AttachmentListActor } from '../compose/attachment-list';
import type { NewsComposeSnapshot } from './compose';
import type { NewsComposeField, NewsFieldError } from './compose-rules';

const NONE: readonly never[] = [];

export const selectIsLoading = (s: NewsComposeSnapshot) => s.matches('loading');
export const selectLoadFailed = (s: NewsComposeSnapshot) => s.matches('loadFailed');
export const selectIsSaving = (s: NewsComposeSnapshot) => s.matches('saving');
export const selectIsLocked = (s: NewsComposeSnapshot) => !s.matches('editing');
export const selectIsAskingToLeave = (s: NewsComposeSnapshot) => s.matches('confirmingLeave');
export const selectIsEditingPost = (s: NewsComposeSnapshot) => s.context.postId !== null;
export const selectRestored = (s: NewsComposeSnapshot) => s.context.restored;
export const selectSaveFailed = (s: NewsComposeSnapshot) => s.matches('editing') && s.context.failure !== null;
export const selectTimezone = (s: NewsComposeSnapshot) => s.context.timezone;

export const selectTitle = (s: NewsComposeSnapshot) => s.context.form.title;
export const selectBody = (s: NewsComposeSnapshot) => s.context.form.body;
export const selectCategoryId = (s: NewsComposeSnapshot) => s.context.form.categoryId;
export const selectScope = (s: NewsComposeSnapshot) => s.context.form.audience.scope;
export const selectLevelIds = (s: NewsComposeSnapshot): readonly number[] => s.context.form.audience.level_ids;
export const selectCourseIds = (s: NewsComposeSnapshot): readonly number[] => s.context.form.audience.course_ids;
export const selectChosenCount = (s: NewsComposeSnapshot) =>
  s.context.form.audience.level_ids.length + s.context.form.audience.course_ids.length;
export const selectPublishNow = (s: NewsComposeSnapshot) => s.context.form.publishAt === null;
export const selectPublishDate = (s: NewsComposeSnapshot) => s.context.form.publishAt?.date ?? '';
export const selectPublishTime = (s: NewsComposeSnapshot) => s.context.form.publishAt?.time ?? '';
export const selectEndsDate = (s: NewsComposeSnapshot) => s.context.form.endsAt?.date ?? '';
export const selectEndsTime = (s: NewsComposeSnapshot) => s.context.form.endsAt?.time ?? '';
export const selectHasEnds = (s: NewsComposeSnapshot) => s.context.form.endsAt !== null;
export const selectPinned = (s: NewsComposeSnapshot) => s.context.form.pinned;

export const selectCategories = (s: NewsComposeSnapshot): readonly NewsCategory[] => s.context.setup?.categories ?? NONE;
export const selectLevels = (s: NewsComposeSnapshot): readonly RecipientLevel[] => s.context.setup?.levels ?? NONE;
export const selectCourses = (s: NewsComposeSnapshot): readonly AudienceCourse[] => s.context.setup?.courses ?? NONE;

export const selectAttachmentList = (s: NewsComposeSnapshot): AttachmentListActor | null => s.children.attachments ?? null;

/** One field's error (the same object until it changes). */
export const selectFieldError =
  (field: NewsComposeField) =>
  (s: NewsComposeSnapshot): NewsFieldError | null =>
    s.context.errors[field] ?? null;
