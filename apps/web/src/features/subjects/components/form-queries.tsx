import type { FormDataResponse } from '@cdms/contract';
import type { FormLayout, Language } from '@cdms/study';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import {
  type AnswerCorrection,
  QUERY_THREAD_MODAL,
  QueryThreadPanel,
} from '../../../components/query-thread-panel.tsx';
import type { FormAddress } from '../api/forms.ts';
import { itemLabel, toFormItemPath } from '../lib/form-values.ts';
import { ItemQueryButton } from './item-query-button.tsx';

/**
 * The form's queries (issue 14), for the form editor's slots: each item's query badge, the
 * toolbar's button for the whole form's, and the thread panel they open.
 */
export function useFormQueries({
  address,
  formData,
  layout,
  language,
  visitLabel,
  correctionOf,
}: {
  address: FormAddress;
  formData: FormDataResponse;
  layout: FormLayout;
  language: Language;
  visitLabel: string;
  /** An item's part in an answer (its unsaved change, the form's save), or null where nothing is edited. */
  correctionOf: (itemKey: string) => AnswerCorrection | null;
}) {
  const { t } = useTranslation('queries');
  const modals = useModalStack();
  const { studyId, subjectPk, visitKey, formKey } = address;
  /** The queries the thread panel shows: one item's (its top-level key), or the whole form's (null). */
  const [queryPanel, setQueryPanel] = useState<{ itemKey: string | null } | null>(null);

  /** The form's queries by the top-level item they are on; '' for the whole form and rows of groups. */
  const queriesByItem = useMemo(() => {
    const byItem = new Map<string, FormDataResponse['queries']>();
    for (const query of formData.queries) {
      const path = toFormItemPath(query.itemPath, visitKey, formKey);
      const key = layout.items.has(path) ? path : '';
      byItem.set(key, [...(byItem.get(key) ?? []), query]);
    }
    return byItem;
  }, [formData.queries, visitKey, formKey, layout]);
  const canRaise = formData.abilities.openQuery;
  const openQueries = useCallback(
    (itemKey: string | null) => {
      setQueryPanel({ itemKey });
      if (!modals.isOpen(QUERY_THREAD_MODAL)) modals.open(QUERY_THREAD_MODAL);
    },
    [modals],
  );

  /** An item's query badge (its queries, or raising one), by its top-level key. */
  const itemButton = useCallback(
    (itemKey: string, labelId: string) => {
      const queries = queriesByItem.get(itemKey) ?? [];
      if (queries.length === 0 && !canRaise) return null;
      return (
        <ItemQueryButton
          queries={queries}
          canRaise={canRaise}
          describedBy={labelId}
          onOpen={() => openQueries(itemKey)}
        />
      );
    },
    [queriesByItem, canRaise, openQueries],
  );

  return {
    itemButton,
    toolbarButton:
      formData.queries.length > 0 || canRaise ? (
        <Button variant="secondary" size="sm" onClick={() => openQueries(null)}>
          {t('badge.formButton', {
            count: formData.queries.filter((query) => query.status === 'open' || query.status === 'answered')
              .length,
          })}
        </Button>
      ) : null,
    panel: queryPanel ? (
      <QueryThreadPanel
        studyId={studyId}
        context={
          queryPanel.itemKey === null
            ? t('badge.formContext', {
                subject: formData.subject.subjectId,
                visit: visitLabel,
                form: layout.form.label[language],
              })
            : t('badge.itemContext', {
                subject: formData.subject.subjectId,
                visit: visitLabel,
                form: layout.form.label[language],
                item: itemLabel(layout, queryPanel.itemKey, language),
              })
        }
        queries={(queryPanel.itemKey === null
          ? formData.queries
          : (queriesByItem.get(queryPanel.itemKey) ?? [])
        ).map((query) => ({
          id: query.id,
          state: query.status,
          text:
            queryPanel.itemKey === null
              ? `${query.itemPath ? itemLabel(layout, toFormItemPath(query.itemPath, visitKey, formKey), language) : t('badge.wholeForm')} · ${query.message[language]}`
              : query.message[language],
          openedAt: query.openedAt,
        }))}
        raise={
          canRaise
            ? {
                subjectPk,
                visitKey,
                formKey,
                itemPath: queryPanel.itemKey === null ? '' : `${visitKey}.${formKey}.${queryPanel.itemKey}`,
              }
            : null
        }
        correction={queryPanel.itemKey !== null ? correctionOf(queryPanel.itemKey) : null}
      />
    ) : null,
  };
}
