// Wall posts as the guardian API answers them (GET /app/wall), for the wall's model tests.
import type { NewsPost } from '../../shared/news-contract';

export const wallPost = (id: number): NewsPost => ({
  id,
  title: `Publicación ${id}`,
  body: 'Texto de la publicación.',
  category: null,
  author: { id: 3, name: 'Marta Díaz' },
  audience: { scope: 'groups', level_ids: [], course_ids: [5] },
  audience_names: [],
  status: 'published',
  pinned: id === 1,
  publish_at: `2026-11-${String(28 - id).padStart(2, '0')}T12:00:00.000Z`,
  ends_at: null,
  attachments: [
    {
      id: id * 10,
      name: `foto-${id}.jpg`,
      size: 2048,
      content_type: 'image/jpeg',
      url: `/api/news/${id}/attachments/${id * 10}`,
      is_image: true,
    },
  ],
  created_at: '2026-11-01T12:00:00.000Z',
  updated_at: '2026-11-01T12:00:00.000Z',
  deleted_at: null,
  deleted_by: null,
  editable: false,
});
