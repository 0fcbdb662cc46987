import { AUDIT_TEXT_MAX, roles } from '@cdms/contract';
import type { Language, StudyDefinition } from '@cdms/study';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FilterChoice,
  FilterPanel,
  FilterPeriod,
  FilterText,
  listStyles,
  SiteFilterChoice,
} from '../../../components/list-page.tsx';
import { panelFieldsOf } from '../../../lib/list-state.ts';
import { visitFormItemChoices } from '../../../lib/study-definition.ts';
import { type AuditFilterFields, EMPTY_AUDIT_FILTER_FIELDS } from '../lib/audit-filters.ts';

/**
 * The audit page's search form (issue 16): date range (UTC+9 days), role, site, event type, visit,
 * form, item and words, applied together. Visits, forms and items come from the study definition; a
 * form is chosen within its visit, an item within its form. User and subject are picked from the rows.
 */
export function AuditFilterPanel({
  applied,
  sites,
  eventTypes,
  definition,
  onApply,
}: {
  applied: AuditFilterFields;
  sites: readonly { id: number; code: string }[];
  eventTypes: readonly { type: string; label: { ko: string; en: string } }[];
  definition: StudyDefinition | undefined;
  onApply: (fields: AuditFilterFields) => void;
}) {
  const { t, i18n } = useTranslation('audit');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const [fields, setFields] = useState<AuditFilterFields>(() =>
    panelFieldsOf(applied, EMPTY_AUDIT_FILTER_FIELDS),
  );
  const set = <K extends keyof AuditFilterFields>(key: K, value: AuditFilterFields[K]) =>
    setFields((current) => ({ ...current, [key]: value }));

  const { forms, items } = visitFormItemChoices(definition, fields.visitKey, fields.formKey);
  const labels = {
    visit: new Map((definition?.visits ?? []).map((v) => [v.key, v.label[language]])),
    form: new Map(forms.map((form) => [form.key, form.label[language]])),
    item: new Map(items.map(([key, location]) => [key, location.item.label[language]])),
    event: new Map(eventTypes.map((event) => [event.type, event.label[language]])),
  };

  return (
    <FilterPanel
      onSubmit={() => onApply({ ...fields, text: fields.text.trim() })}
      onReset={() => {
        setFields(EMPTY_AUDIT_FILTER_FIELDS);
        onApply(EMPTY_AUDIT_FILTER_FIELDS);
      }}
    >
      {(actions) => (
        <>
          <div className={listStyles.filterRow}>
            <FilterPeriod
              label={t('filters.period')}
              startLabel={t('filters.from')}
              endLabel={t('filters.to')}
              start={fields.from}
              end={fields.to}
              onStartChange={(value) => set('from', value)}
              onEndChange={(value) => set('to', value)}
            />
            <FilterChoice
              label={t('filters.role')}
              choices={['', ...roles]}
              value={fields.role}
              optionLabel={(choice) => (choice === '' ? t('filters.all') : choice)}
              onChange={(choice) => set('role', choice)}
            />
            <SiteFilterChoice
              label={t('filters.site')}
              allSitesLabel={t('filters.allSites')}
              sites={sites.map((site) => ({ id: site.id, label: site.code }))}
              value={fields.siteId}
              onChange={(siteId) => set('siteId', siteId)}
            />
            <FilterChoice
              label={t('filters.eventType')}
              choices={['', ...eventTypes.map((event) => event.type)]}
              value={fields.eventType}
              optionLabel={(choice) =>
                choice === '' ? t('filters.all') : (labels.event.get(choice) ?? choice)
              }
              onChange={(choice) => set('eventType', choice)}
            />
          </div>
          <div className={listStyles.filterRow}>
            <FilterChoice
              label={t('filters.visit')}
              choices={['', ...(definition?.visits ?? []).map((v) => v.key)]}
              value={fields.visitKey}
              optionLabel={(choice) =>
                choice === '' ? t('filters.all') : (labels.visit.get(choice) ?? choice)
              }
              onChange={(choice) =>
                setFields((current) => ({ ...current, visitKey: choice, formKey: '', itemKey: '' }))
              }
            />
            <FilterChoice
              label={t('filters.form')}
              choices={['', ...forms.map((form) => form.key)]}
              value={fields.formKey}
              optionLabel={(choice) =>
                choice === '' ? t('filters.all') : (labels.form.get(choice) ?? choice)
              }
              onChange={(choice) => setFields((current) => ({ ...current, formKey: choice, itemKey: '' }))}
            />
            <FilterChoice
              label={t('filters.item')}
              choices={['', ...items.map(([key]) => key)]}
              value={fields.itemKey}
              optionLabel={(choice) =>
                choice === '' ? t('filters.all') : (labels.item.get(choice) ?? choice)
              }
              onChange={(choice) => set('itemKey', choice)}
            />
            <FilterText
              label={t('filters.text')}
              value={fields.text}
              maxLength={AUDIT_TEXT_MAX}
              onChange={(text) => set('text', text)}
            />
            {actions}
          </div>
        </>
      )}
    </FilterPanel>
  );
}
