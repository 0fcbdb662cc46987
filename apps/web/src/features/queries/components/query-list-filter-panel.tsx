import { QUERY_SEARCH_MAX, type SiteSummary } from '@cdms/contract';
import type { Language, StudyDefinition } from '@cdms/study';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterPanel, listStyles } from '../../../components/list-page.tsx';
import { panelFieldsOf } from '../../../lib/list-state.ts';
import { visitFormItemChoices } from '../../../lib/study-definition.ts';
import {
  AGE_CHOICES,
  type AgeChoice,
  ASSIGNEE_CHOICES,
  type AssigneeChoice,
  EMPTY_QUERY_FILTER_FIELDS,
  KIND_CHOICES,
  type KindChoice,
  type QueryFilterFields,
  STATE_CHOICES,
  type StateChoice,
} from '../lib/query-list-filters.ts';
import styles from './queries.module.css';

/**
 * The query list's search form (issue 14): state (unresolved by default), kind, site, subject, visit,
 * form, item, assignee, age bucket and words of the messages, applied together. Visits, forms and
 * items come from the study definition; a form is chosen within its visit, an item within its form.
 */
export function QueryListFilterPanel({
  applied,
  sites,
  definition,
  onApply,
}: {
  applied: QueryFilterFields;
  sites: readonly SiteSummary[];
  definition: StudyDefinition | undefined;
  onApply: (fields: QueryFilterFields) => void;
}) {
  const { t, i18n } = useTranslation('queries');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const [fields, setFields] = useState<QueryFilterFields>(() =>
    panelFieldsOf(applied, EMPTY_QUERY_FILTER_FIELDS),
  );
  const id = useId();
  const set = <K extends keyof QueryFilterFields>(key: K, value: QueryFilterFields[K]) =>
    setFields((current) => ({ ...current, [key]: value }));

  const { forms, items } = visitFormItemChoices(definition, fields.visitKey, fields.formKey);

  const select = <T extends string>(
    key: keyof QueryFilterFields,
    label: string,
    value: T,
    options: readonly { value: T; label: string }[],
    onChange: (value: T) => void,
    wide = false,
  ) => (
    <div className={wide ? `${listStyles.field} ${styles.wideField}` : listStyles.field}>
      <label className={listStyles.label} htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <select
        id={`${id}-${key}`}
        className={listStyles.select}
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );

  const all = { value: '', label: t('list.allOption') };
  return (
    <FilterPanel
      onSubmit={() => onApply({ ...fields, subject: fields.subject.trim(), text: fields.text.trim() })}
      onReset={() => {
        setFields(EMPTY_QUERY_FILTER_FIELDS);
        onApply(EMPTY_QUERY_FILTER_FIELDS);
      }}
    >
      {(actions) => (
        <>
          <div className={listStyles.filterRow}>
            {select<StateChoice>(
              'state',
              t('list.state'),
              fields.state,
              STATE_CHOICES.map((value) => ({ value, label: t(`states.${value}`) })),
              (value) => set('state', value),
            )}
            {select<KindChoice>(
              'kind',
              t('list.kind'),
              fields.kind,
              KIND_CHOICES.map((value) => ({ value, label: t(`kinds.${value}`) })),
              (value) => set('kind', value),
            )}
            {select<AssigneeChoice>(
              'assignee',
              t('list.assignee'),
              fields.assignee,
              ASSIGNEE_CHOICES.map((value) => ({ value, label: t(`assignees.${value}`) })),
              (value) => set('assignee', value),
            )}
            {select<AgeChoice>(
              'age',
              t('list.age'),
              fields.age,
              AGE_CHOICES.map((value) => ({ value, label: t(`ages.${value}`) })),
              (value) => set('age', value),
            )}
            {select(
              'siteId',
              t('list.site'),
              fields.siteId === null ? '' : String(fields.siteId),
              [
                { value: '', label: t('list.siteAll') },
                ...sites.map((site) => ({ value: String(site.id), label: `${site.code} ${site.name}` })),
              ],
              (value) => set('siteId', value ? Number(value) : null),
            )}
          </div>
          <div className={listStyles.filterRow}>
            {select(
              'visitKey',
              t('list.visit'),
              fields.visitKey,
              [all, ...(definition?.visits ?? []).map((v) => ({ value: v.key, label: v.label[language] }))],
              (value) => setFields((current) => ({ ...current, visitKey: value, formKey: '', itemPath: '' })),
              true,
            )}
            {select(
              'formKey',
              t('list.form'),
              fields.formKey,
              [all, ...forms.map((form) => ({ value: form.key, label: form.label[language] }))],
              (value) => setFields((current) => ({ ...current, formKey: value, itemPath: '' })),
              true,
            )}
            {select(
              'itemPath',
              t('list.item'),
              fields.itemPath,
              [
                all,
                ...items.map(([key, location]) => ({
                  value: `${fields.visitKey}.${fields.formKey}.${key}`,
                  label: location.item.label[language],
                })),
              ],
              (value) => set('itemPath', value),
              true,
            )}
          </div>
          <div className={listStyles.filterRow}>
            <div className={`${listStyles.field} ${listStyles.fieldGrow}`}>
              <label className={listStyles.label} htmlFor={`${id}-subject`}>
                {t('list.subject')}
              </label>
              <input
                id={`${id}-subject`}
                type="search"
                className={listStyles.input}
                placeholder={t('list.subjectPlaceholder')}
                maxLength={QUERY_SEARCH_MAX}
                value={fields.subject}
                onChange={(event) => set('subject', event.target.value)}
              />
            </div>
            <div className={`${listStyles.field} ${listStyles.fieldGrow}`}>
              <label className={listStyles.label} htmlFor={`${id}-text`}>
                {t('list.text')}
              </label>
              <input
                id={`${id}-text`}
                type="search"
                className={listStyles.input}
                placeholder={t('list.textPlaceholder')}
                maxLength={QUERY_SEARCH_MAX}
                value={fields.text}
                onChange={(event) => set('text', event.target.value)}
              />
            </div>
            {actions}
          </div>
        </>
      )}
    </FilterPanel>
  );
}
