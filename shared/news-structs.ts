// Runtime checks for the news wall's bodies (news-contract.ts), in the other *-structs' conventions:
// `type()` so extra fields do not break older clients, `Describe` to keep in step with the contract.
import { array, boolean, enums, nullable, number, string, type, type Describe } from 'superstruct';
import { NEWS_STATUSES, type NewsAttachment, type NewsAudience, type NewsCategory, type NewsPost, type NewsWeek } from './news-contract';

const NamedStruct = type({ id: number(), name: string() });

export const NewsAudienceStruct: Describe<NewsAudience> = type({
  scope: enums(['school', 'groups'] as const),
  level_ids: array(number()),
  course_ids: array(number()),
});

const NewsAttachmentStruct: Describe<NewsAttachment> = type({
  id: number(),
  name: string(),
  size: number(),
  content_type: string(),
  url: string(),
  is_image: boolean(),
});

const NewsCategoryStruct: Describe<NewsCategory> = type({
  id: number(),
  name: string(),
  position: number(),
  post_count: number(),
});

export const NewsPostStruct: Describe<NewsPost> = type({
  id: number(),
  title: string(),
  body: string(),
  category: nullable(NamedStruct),
  author: NamedStruct,
  audience: NewsAudienceStruct,
  audience_names: array(string()),
  status: enums(NEWS_STATUSES),
  pinned: boolean(),
  publish_at: string(),
  ends_at: nullable(string()),
  attachments: array(NewsAttachmentStruct),
  created_at: string(),
  updated_at: string(),
  deleted_at: nullable(string()),
  deleted_by: nullable(NamedStruct),
  editable: boolean(),
});

const NewsWeekStruct: Describe<NewsWeek> = type({
  from: string(),
  to: string(),
  school: string(),
  wall_url: string(),
  posts: array(NewsPostStruct),
});

/** `GET /news` and `/news/trash` (cursor pages, messages-contract.ts `Paged`). */
export const NewsPageStruct = type({
  data: array(NewsPostStruct),
  meta: type({ per_page: number(), next_cursor: nullable(string()), prev_cursor: nullable(string()), total: number() }),
  links: type({ next: nullable(string()), prev: nullable(string()) }),
});
export const NewsPostBodyStruct = type({ data: NewsPostStruct });
export const NewsCategoriesBodyStruct = type({ data: array(NewsCategoryStruct) });
export const NewsCategoryBodyStruct = type({ data: NewsCategoryStruct });
export const NewsWeekBodyStruct = type({ data: NewsWeekStruct });

/** `GET /app/wall?page=` (the guardian app's numbered pages, news-contract.ts GUARDIAN_WALL_API). */
export const GuardianWallPageStruct = type({
  data: array(NewsPostStruct),
  meta: type({ current_page: number(), last_page: number(), per_page: number(), total: number() }),
  links: type({ first: string(), last: string(), prev: nullable(string()), next: nullable(string()) }),
});
