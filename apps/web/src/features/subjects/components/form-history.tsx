import { type AuditEntry, casebookPdfPath } from '@cdms/contract';
import { type FormLayout, isEmptyEntry, type Language } from '@cdms/study';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { type FormAddress, useFormAudit } from '../api/forms.ts';
import { itemLabel, toFormItemPath } from '../lib/form-values.ts';
import { HISTORY_MODAL, HistoryModal, type HistoryRow, ITEM_HISTORY_MODAL } from './detail-modals.tsx';
import styles from './subject-detail.module.css';
import type { Base } from './use-form-draft.ts';

/**
 * The form's change history, for the form editor's slots: the toolbar's "history" (the whole form)
 * and each saved item's own history button, and their two dialogs.
 */
export function useFormHistory({
  address,
  layout,
  language,
  visitLabel,
  base,
  describe,
}: {
  address: FormAddress;
  layout: FormLayout;
  language: Language;
  visitLabel: string;
  /** The saved version: only an item with a saved value has a history. */
  base: Base;
  /** A value as the form shows it (codes by their labels). */
  describe: (path: string, value: unknown) => string;
}) {
  const { t } = useTranslation('subjects');
  const modals = useModalStack();
  const { studyId, subjectPk, visitKey, formKey } = address;
  const [historyOpen, setHistoryOpen] = useState(false);
  /** The item (top-level key) whose own history is open. */
  const [historyItem, setHistoryItem] = useState<string | null>(null);

  const audit = useFormAudit(address, historyOpen);
  const itemAudit = useFormAudit(address, historyItem !== null, historyItem ?? undefined);
  /** History entries as rows: the item by its label, old → new as the form shows them (codes by label). */
  const historyRowsOf = useCallback(
    (entries: readonly AuditEntry[] | undefined): HistoryRow[] | undefined =>
      entries?.map((entry) => {
        const path = entry.itemPath ? toFormItemPath(entry.itemPath, visitKey, formKey) : '';
        const isItem = entry.type === 'data.item_changed';
        // Audit types are dotted (`data.form_reset`); translation keys use "_" (a dot nests keys).
        const typeLabel = t(`history.types.${entry.type.replaceAll('.', '_')}`, { defaultValue: entry.type });
        const sideValue = (side: unknown) =>
          side && typeof side === 'object' && 'value' in side ? (side as { value: unknown }).value : null;
        return {
          entry,
          what: isItem
            ? itemLabel(layout, path, language)
            : path
              ? `${typeLabel} · ${itemLabel(layout, path, language)}`
              : typeLabel,
          before: isItem ? describe(path, sideValue(entry.before)) : '',
          after: isItem ? describe(path, sideValue(entry.after)) : '',
        };
      }),
    [visitKey, formKey, layout, language, t, describe],
  );
  const historyRows = useMemo(() => historyRowsOf(audit.data), [historyRowsOf, audit.data]);
  const itemHistoryRows = useMemo(() => historyRowsOf(itemAudit.data), [historyRowsOf, itemAudit.data]);

  /**
   * The history button of an item (or repeating group) with a saved value: named "change history",
   * described by the item's label (so a label lookup finds the input, not the button).
   */
  const historyButton = useCallback(
    (itemKey: string, describedBy: string) => {
      if (isEmptyEntry(base.values[itemKey])) return null;
      return (
        <button
          type="button"
          className={styles.itemHistory}
          aria-label={t('history.itemButtonLabel')}
          aria-describedby={describedBy}
          onClick={() => {
            setHistoryItem(itemKey);
            modals.open(ITEM_HISTORY_MODAL);
          }}
        >
          {t('history.itemButton')}
        </button>
      );
    },
    [base.values, modals, t],
  );

  return {
    /** The history button of an item (or repeating group), by its stored key. */
    itemButton: historyButton,
    toolbarButton: (
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setHistoryOpen(true);
          void audit.refetch();
          modals.open(HISTORY_MODAL);
        }}
      >
        {t('detail.history')}
      </Button>
    ),
    dialogs: (
      <>
        <HistoryModal
          name={HISTORY_MODAL}
          title={t('history.title')}
          description={t('history.description', { visit: visitLabel, form: layout.form.label[language] })}
          rows={historyRows}
          loading={audit.isPending || audit.isFetching}
          error={audit.isError ? audit.error.message : null}
          pdfWithAuditHref={casebookPdfPath(studyId, subjectPk, { lang: language, audit: true })}
        />
        <HistoryModal
          name={ITEM_HISTORY_MODAL}
          title={t('history.itemTitle')}
          description={t('history.itemDescription', {
            visit: visitLabel,
            form: layout.form.label[language],
            item: historyItem ? itemLabel(layout, historyItem, language) : '',
          })}
          rows={itemHistoryRows}
          showItem={false}
          loading={itemAudit.isPending || itemAudit.isFetching}
          error={itemAudit.isError ? itemAudit.error.message : null}
        />
      </>
    ),
  };
}
