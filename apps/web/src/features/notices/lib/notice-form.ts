import { isBlankRichText, noticeWriteSchema } from '@cdms/contract';

/** The register form's problems, as translation keys of the `notices` namespace (spec §5). */
export type NoticeFormError = 'form.titleRequired' | 'form.titleTooLong' | 'form.contentRequired';

// The blank-content rule is the server's own (422 `content_required`), shared through the contract;
// checking first saves the round trip and lets the message be the spec's.
export { isBlankRichText as isBlankHtml } from '@cdms/contract';

/**
 * Validates what the register form sends with the contract's own schema, after the client-only
 * blank check. Returns the first problem in the order the form shows its fields, or null.
 */
export function validateNoticeForm(input: { title: string; contentHtml: string }): NoticeFormError | null {
  const contentHtml = isBlankRichText(input.contentHtml) ? '' : input.contentHtml;
  const result = noticeWriteSchema.safeParse({ title: input.title, contentHtml });
  if (result.success) return null;
  const issues = result.error.issues;
  const titleIssue = issues.find((issue) => issue.path[0] === 'title');
  if (titleIssue) return titleIssue.code === 'too_big' ? 'form.titleTooLong' : 'form.titleRequired';
  return 'form.contentRequired';
}
