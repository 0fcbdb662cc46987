import {
  SUBJECT_SEARCH_MAX,
  type SubjectListDateType,
  subjectListDateTypes,
  subjectStatusOfValue,
  subjectStatusValues,
} from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAlert } from '../../../components/alert-dialog.tsx';
import { FilterPanel, FilterPeriod, listStyles } from '../../../components/list-page.tsx';
import { panelFieldsOf } from '../../../lib/list-state.ts';
import {
  EMPTY_FILTER_FIELDS,
  type SignatureChoice,
  type StatusChoice,
  type SubjectFilterFields,
} from '../lib/subject-list-filters.ts';

/**
 * The collapsible search form of the subject list (prototype-spec §2): date type with two dates or
 * an all/3/6-month preset, status, initial signature and a search text, applied together.
 */
export function SubjectListFilterPanel({
  applied,
  randomizes,
  onApply,
}: {
  applied: SubjectFilterFields;
  /** The study randomizes: the search looks in randomization numbers too, and says so. */
  randomizes: boolean;
  onApply: (fields: SubjectFilterFields) => void;
}) {
  const { t } = useTranslation('subjects');
  const alert = useAlert();
  const [fields, setFields] = useState<SubjectFilterFields>(() =>
    panelFieldsOf(applied, EMPTY_FILTER_FIELDS),
  );
  const formId = useId();
  const set = <K extends keyof SubjectFilterFields>(key: K, value: SubjectFilterFields[K]) =>
    setFields((current) => ({ ...current, [key]: value }));

  function submit() {
    // The server refuses this too (400); saying it here names the problem.
    if (fields.start && fields.end && fields.start > fields.end) {
      void alert.alert({ message: t('list.startAfterEnd') });
      return;
    }
    onApply({ ...fields, search: fields.search.trim() });
  }

  return (
    <FilterPanel
      onSubmit={submit}
      onReset={() => {
        setFields(EMPTY_FILTER_FIELDS);
        onApply(EMPTY_FILTER_FIELDS);
      }}
    >
      {(actions) => (
        <>
          <div className={listStyles.filterRow}>
            <div className={listStyles.field}>
              <label className={listStyles.label} htmlFor={`${formId}-dateType`}>
                {t('list.dateType')}
              </label>
              <select
                id={`${formId}-dateType`}
                className={listStyles.select}
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
            <FilterPeriod
              label={t('list.period')}
              startLabel={t('list.start')}
              endLabel={t('list.end')}
              start={fields.start}
              end={fields.end}
              onStartChange={(value) => set('start', value)}
              onEndChange={(value) => set('end', value)}
              presets={{
                presetLabel: (preset) => t(`list.presets.${preset}`),
                onPick: (dates) => setFields((current) => ({ ...current, ...dates })),
              }}
            />
          </div>
          <div className={listStyles.filterRow}>
            <div className={listStyles.field}>
              <label className={listStyles.label} htmlFor={`${formId}-status`}>
                {t('list.status')}
              </label>
              <select
                id={`${formId}-status`}
                className={listStyles.select}
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
            <div className={listStyles.field}>
              <label className={listStyles.label} htmlFor={`${formId}-signature`}>
                {t('list.signature')}
              </label>
              <select
                id={`${formId}-signature`}
                className={listStyles.select}
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
            <div className={`${listStyles.field} ${listStyles.fieldGrow}`}>
              <label className={listStyles.label} htmlFor={`${formId}-search`}>
                {t('list.search')}
              </label>
              <input
                id={`${formId}-search`}
                type="search"
                className={listStyles.input}
                placeholder={t(
                  randomizes ? 'list.searchPlaceholder' : 'list.searchPlaceholderNoRandomization',
                )}
                maxLength={SUBJECT_SEARCH_MAX}
                value={fields.search}
                onChange={(event) => set('search', event.target.value)}
              />
            </div>
            {actions}
          </div>
        </>
      )}
    </FilterPanel>
  );
}
