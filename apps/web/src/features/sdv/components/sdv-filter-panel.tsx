import { type SiteSummary, sdvSubjectStateFilters } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterPanel, listStyles } from '../../../components/list-page.tsx';
import type { SdvFilters, SdvStateChoice } from '../lib/sdv-filters.ts';

type Fields = Pick<SdvFilters, 'siteId' | 'subject' | 'state'>;
const EMPTY: Fields = { siteId: null, subject: '', state: 'all' };

/** The SDV page's search form: site, subject (screening or randomization number) and SDV state. */
export function SdvFilterPanel({
  applied,
  sites,
  onApply,
}: {
  applied: Fields;
  sites: readonly SiteSummary[];
  onApply: (fields: Fields) => void;
}) {
  const { t } = useTranslation('sdv');
  const id = useId();
  const [fields, setFields] = useState<Fields>({
    siteId: applied.siteId,
    subject: applied.subject,
    state: applied.state,
  });
  return (
    <FilterPanel
      onSubmit={() => onApply({ ...fields, subject: fields.subject.trim() })}
      onReset={() => {
        setFields(EMPTY);
        onApply(EMPTY);
      }}
    >
      {(actions) => (
        <div className={listStyles.filterRow}>
          <div className={listStyles.field}>
            <label className={listStyles.label} htmlFor={`${id}-site`}>
              {t('filters.site')}
            </label>
            <select
              id={`${id}-site`}
              className={listStyles.select}
              value={fields.siteId === null ? '' : String(fields.siteId)}
              onChange={(event) =>
                setFields({ ...fields, siteId: event.target.value ? Number(event.target.value) : null })
              }
            >
              <option value="">{t('filters.allSites')}</option>
              {sites.map((site) => (
                <option key={site.id} value={site.id}>
                  {site.code} {site.name}
                </option>
              ))}
            </select>
          </div>
          <div className={listStyles.field}>
            <label className={listStyles.label} htmlFor={`${id}-state`}>
              {t('filters.state')}
            </label>
            <select
              id={`${id}-state`}
              className={listStyles.select}
              value={fields.state}
              onChange={(event) => setFields({ ...fields, state: event.target.value as SdvStateChoice })}
            >
              {sdvSubjectStateFilters.map((state) => (
                <option key={state} value={state}>
                  {t(`filters.states.${state}`)}
                </option>
              ))}
            </select>
          </div>
          <div className={`${listStyles.field} ${listStyles.fieldGrow}`}>
            <label className={listStyles.label} htmlFor={`${id}-subject`}>
              {t('filters.subject')}
            </label>
            <input
              id={`${id}-subject`}
              className={listStyles.input}
              maxLength={100}
              value={fields.subject}
              onChange={(event) => setFields({ ...fields, subject: event.target.value })}
            />
          </div>
          {actions}
        </div>
      )}
    </FilterPanel>
  );
}
