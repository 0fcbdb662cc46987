import { z } from 'zod';
import { calendarDateSchema } from './calendar-date.ts';
import { pagedShape, pageQueryShape } from './ids.ts';
import { dateRangePresets } from './korea-time.ts';
import { changesSomething, nothingToChange } from './request-body.ts';

/** Notice list filters (prototype-spec §2 "Notice list"), as query parameters. */
export const noticeListQuerySchema = z.object({
  start: calendarDateSchema.optional(),
  end: calendarDateSchema.optional(),
  range: z.enum(dateRangePresets).default('all'),
  search: z.string().trim().max(100).optional(),
  ...pageQueryShape([10, 20, 50], 10),
});
export type NoticeListQuery = z.input<typeof noticeListQuerySchema>;

export const noticeSummarySchema = z.object({
  id: z.number().int(),
  /** The number shown in the list: the newest notice has the highest. */
  no: z.number().int(),
  title: z.string(),
  writer: z.string(),
  /** When it was registered (ISO 8601, UTC; shown in UTC+9). */
  createdAt: z.string(),
  pinned: z.boolean(),
  visible: z.boolean(),
  /** A notice for every study, written by a system administrator. */
  global: z.boolean(),
});
export type NoticeSummary = z.infer<typeof noticeSummarySchema>;

export const noticeListResponseSchema = z.object({
  notices: z.array(noticeSummarySchema),
  ...pagedShape,
  /** Whether this user may write notices in this study (register button). */
  canWrite: z.boolean(),
});
export type NoticeListResponse = z.infer<typeof noticeListResponseSchema>;

export const noticeDetailSchema = noticeSummarySchema.extend({
  contentHtml: z.string(),
  updatedAt: z.string(),
  canEdit: z.boolean(),
});
export type NoticeDetail = z.infer<typeof noticeDetailSchema>;

export const NOTICE_TITLE_MAX = 200;
export const NOTICE_CONTENT_MAX = 200_000;

/**
 * True when rich text shows nothing: no text and no image (an empty editor gives `<p></p>`).
 * The browser asks before sending; the server decides on the sanitized HTML (422 content_required).
 */
export function isBlankRichText(html: string): boolean {
  if (/<img\s/i.test(html)) return false;
  return richTextWords(html) === '';
}

/**
 * Rich text (sanitized HTML) as the words a reader sees: blocks and line breaks become spaces, tags
 * go, the few entities the sanitizer writes are read back, white space folded (the audit page shows
 * a notice's content so).
 */
export function richTextWords(html: string): string {
  return html
    .replace(/<(br|\/p|\/li|\/h\d|\/blockquote)[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

const noticeFields = {
  title: z.string().trim().min(1, { error: 'title_required' }).max(NOTICE_TITLE_MAX),
  contentHtml: z.string().min(1, { error: 'content_required' }).max(NOTICE_CONTENT_MAX),
  pinned: z.boolean(),
  visible: z.boolean(),
};

export const noticeWriteSchema = z.strictObject({
  ...noticeFields,
  pinned: noticeFields.pinned.default(false),
  visible: noticeFields.visible.default(true),
  /** `global`: shown in every study (system administrators only). */
  scope: z.enum(['study', 'global']).default('study'),
});
export type NoticeWrite = z.input<typeof noticeWriteSchema>;

/**
 * A partial edit: only the fields sent change. No defaults here: with them, an edit of the title alone
 * unpinned and showed the notice.
 */
export const noticeUpdateSchema = z
  .strictObject(noticeFields)
  .partial()
  .refine(changesSomething, nothingToChange);
export type NoticeUpdate = z.input<typeof noticeUpdateSchema>;

export const imageUploadResponseSchema = z.object({ imageUrl: z.string() });
export const IMAGE_UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
