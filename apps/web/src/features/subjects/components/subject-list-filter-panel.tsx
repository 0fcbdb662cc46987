import {
  SUBJECT_SEARCH_MAX,
  type SubjectListDateType,
  subjectListDateTypes,
  subjectStatusOfValue,
  subjectStatusValues,
} from '@cdms/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { Button } from '../../../components/button.tsx';
import {
  deriveRange,
  EMPTY_FILTER_FIELDS,
  presetDates,
  type SignatureChoice,
  type StatusChoice,
  SUBJECT_RANGE_PRESETS,
  type SubjectFilterFields,
} from '../lib/subject-list-filters.ts';
import styles from './subject-list.module.css';

/**
 * The collapsible search form of the subject list (prototype-spec §2): date type with two dates or
 * an all/3/6-month preset, status, initial signature and a search text, applied together.
 */
export function SubjectListFilterPanel({
  applied,
  onApply,
}: {
  applied: SubjectFilterFields;
  onApply: (fields: SubjectFilterFields) => void;
}) {
  const { t } = useTranslation('subjects');
  const alert = useAlert();
  const [open, setOpen] = useState(true);
  const [fields, setFields] = useState<SubjectFilterFields>(applied);
  const formId = useId();
  const range = deriveRange(fields.start, fields.end);
  const set = <K extends keyof SubjectFilterFields>(key: K, value: SubjectFilterFields[K]) =>
    setFields((current) => ({ ...current, [key]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    // The server refuses this too (400); saying it here names the problem.
    if (fields.start && fields.end && fields.start > fields.end) {
      void alert.alert({ message: t('list.startAfterEnd') });
      return;
    }
    onApply({ ...fields, search: fields.search.trim() });
  }

  return (
    <div className={`${styles.card} ${styles.filters}`}>
      <div className={styles.filtersHeader}>
        <h2 className={styles.filtersTitle}>{t('list.filters')}</h2>
        <Button
          variant="ghost"
          size="sm"
          aria-expanded={open}
          aria-controls={formId}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? t('list.closeFilters') : t('list.openFilters')}
        </Button>
      </div>
      <form id={formId} className={styles.filterForm} hidden={!open} onSubmit={submit}>
        <div className={styles.filterRow}>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={`${formId}-dateType`}>
              {t('list.dateType')}
            </label>
            <select
              id={`${formId}-dateType`}
              className={styles.select}
              value={fields.dateType}
              onChange={(event) => set('dateType', event.target.value as SubjectListDateType)}
            >
              {subjectListDateTypes.map((type) => (
                <option key={type} value={type}>
                  {t(`list.dateTypes.${type}`)}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <span className={styles.label} id={`${formId}-period`}>
              {t('list.period')}
            </span>
            <div className={styles.dateRow}>
              <input
                type="date"
                className={styles.input}
                aria-label={t('list.start')}
                value={fields.start}
                max={fields.end || undefined}
                onChange={(event) => set('start', event.target.value)}
              />
              <span aria-hidden="true">~</span>
              <input
                type="date"
                className={styles.input}
                aria-label={t('list.end')}
                value={fields.end}
                min={fields.start || undefined}
                onChange={(event) => set('end', event.target.value)}
              />
              {/* biome-ignore lint/a11y/useSemanticElements: a segmented control of toggle buttons, not a fieldset of inputs */}
              <div className={styles.presets} role="group" aria-labelledby={`${formId}-period`}>
                {SUBJECT_RANGE_PRESETS.map((preset) => (
                  <button
                    key={preset}
                    type="button"
                    className={styles.preset}
                    aria-pressed={range === preset}
                    onClick={() => setFields((current) => ({ ...current, ...presetDates(preset) }))}
                  >
                    {t(`list.presets.${preset}`)}
                  </button>
                ))}
              </div>
            </div>
          </div>
        </div>
        <div className={styles.filterRow}>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={`${formId}-status`}>
              {t('list.status')}
            </label>
            <select
              id={`${formId}-status`}
              className={styles.select}
              value={fields.status}
              onChange={(event) => set('status', event.target.value as StatusChoice)}
            >
              <option value="all">{t('list.statusAll')}</option>
              {subjectStatusValues.map((status) => (
                <option key={status} value={status}>
                  {t(`status.${subjectStatusOfValue[status]}`)}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <label className={styles.label} htmlFor={`${formId}-signature`}>
              {t('list.signature')}
            </label>
            <select
              id={`${formId}-signature`}
              className={styles.select}
              value={fields.signature}
              onChange={(event) => set('signature', event.target.value as SignatureChoice)}
            >
              {(['all', 'true', 'false'] as const).map((choice) => (
                <option key={choice} value={choice}>
                  {t(`list.signatureOptions.${choice}`)}
                </option>
              ))}
            </select>
          </div>
          <div className={`${styles.field} ${styles.fieldGrow}`}>
            <label className={styles.label} htmlFor={`${formId}-search`}>
              {t('list.search')}
            </label>
            <input
              id={`${formId}-search`}
              type="search"
              className={styles.input}
              placeholder={t('list.searchPlaceholder')}
              maxLength={SUBJECT_SEARCH_MAX}
              value={fields.search}
              onChange={(event) => set('search', event.target.value)}
            />
          </div>
          <div className={styles.filterActions}>
            <Button
              variant="secondary"
              onClick={() => {
                setFields(EMPTY_FILTER_FIELDS);
                onApply(EMPTY_FILTER_FIELDS);
              }}
            >
              {t('list.reset')}
            </Button>
            <Button type="submit">{t('list.apply')}</Button>
          </div>
        </div>
      </form>
    </div>
  );
}
