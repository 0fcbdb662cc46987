import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client.ts';
import { type ConfirmOptions, useAlert } from './alert-dialog.tsx';
import { useToast } from './toast.tsx';

interface DocumentPageProps<T> {
  /** The page's heading. */
  title: string;
  /** The document's query: its loading and failure are shown in its place. */
  document: { data: T | undefined; error: Error | null };
  /** Said when the server has no such document (or none this reader may see). */
  notFound: string;
  /** Beneath the document: the way back to the list. */
  back: ReactNode;
  /** The page's look: notices and guidelines keep their own style sheets. */
  classes: { page?: string; pageHeader?: string; pageTitle?: string; state: string };
  /** The document itself, once loaded. */
  children: (data: T) => ReactNode;
}

/** The page of one document (a notice, a guideline): heading, the document or its state, the way back. */
export function DocumentPage<T>({
  title,
  document,
  notFound,
  back,
  classes,
  children,
}: DocumentPageProps<T>) {
  const { t } = useTranslation('common');
  const headingId = useId();
  let body: ReactNode;
  if (document.error) {
    body = (
      <p className={classes.state} role="alert">
        {document.error instanceof ApiError && document.error.kind === 'not_found'
          ? notFound
          : document.error.message}
      </p>
    );
  } else if (!document.data) {
    body = (
      <p className={classes.state} role="status">
        {t('loading')}
      </p>
    );
  } else {
    body = children(document.data);
  }
  return (
    <section className={classes.page} aria-labelledby={headingId}>
      <div className={classes.pageHeader}>
        <h1 id={headingId} className={classes.pageTitle}>
          {title}
        </h1>
      </div>
      {body}
      {back}
    </section>
  );
}

/**
 * A writer's action on a document (publish, hide, delete…): asked first when `ask` is given, a
 * toast saying `done` when it went through, the server's refusal in an alert. The action's result
 * (`{ value }`) once done; null when declined or refused.
 */
export function useDocumentAction() {
  const { alert, confirm } = useAlert();
  const toast = useToast();
  return async function run<T>(
    action: () => Promise<T>,
    done: string,
    ask?: ConfirmOptions,
  ): Promise<{ value: T } | null> {
    if (ask && !(await confirm(ask))) return null;
    try {
      const value = await action();
      toast(done, 'success');
      return { value };
    } catch (error) {
      await alert({ message: error instanceof Error ? error.message : String(error) });
      return null;
    }
  };
}

/**
 * A document's rich text (a notice, a guideline, a training module): HTML the server sanitized when
 * it was saved (the notices' allow-list: text formatting, links, images we host) — the one place
 * such HTML is rendered.
 */
export function DocumentContent({ html, className }: { html: string; className?: string }) {
  return (
    <div
      className={className}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server, see above
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
