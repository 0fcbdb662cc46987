import { noticeWriteSchema } from '@cdms/contract';

/** The register form's problems, as translation keys of the `notices` namespace (spec §5). */
export type NoticeFormError = 'form.titleRequired' | 'form.titleTooLong' | 'form.contentRequired';

/**
 * True when the editor's HTML shows nothing: no text and no image (an empty TipTap editor gives
 * `<p></p>`). The server applies the same test (422 `content_required`); checking first saves the
 * round trip and lets the message be the spec's.
 */
export function isBlankHtml(html: string): boolean {
  if (/<img\s/i.test(html)) return false;
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;/g, '')
    .replace(/\s/g, '');
  return text === '';
}

/**
 * Validates what the register form sends with the contract's own schema, after the client-only
 * blank check. Returns the first problem in the order the form shows its fields, or null.
 */
export function validateNoticeForm(input: { title: string; contentHtml: string }): NoticeFormError | null {
  const contentHtml = isBlankHtml(input.contentHtml) ? '' : input.contentHtml;
  const result = noticeWriteSchema.safeParse({ title: input.title, contentHtml });
  if (result.success) return null;
  const issues = result.error.issues;
  const titleIssue = issues.find((issue) => issue.path[0] === 'title');
  if (titleIssue) return titleIssue.code === 'too_big' ? 'form.titleTooLong' : 'form.titleRequired';
  return 'form.contentRequired';
}
