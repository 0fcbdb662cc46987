import { type SiteSummary, sdvSubjectStateFilters } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FilterChoice,
  FilterPanel,
  FilterText,
  listStyles,
  SiteFilterChoice,
} from '../../../components/list-page.tsx';
import type { SdvFilters } from '../lib/sdv-filters.ts';

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
          <SiteFilterChoice
            label={t('filters.site')}
            allSitesLabel={t('filters.allSites')}
            sites={sites.map((site) => ({ id: site.id, label: `${site.code} ${site.name}` }))}
            value={fields.siteId}
            onChange={(siteId) => setFields({ ...fields, siteId })}
          />
          <FilterChoice
            label={t('filters.state')}
            choices={sdvSubjectStateFilters}
            value={fields.state}
            optionLabel={(state) => t(`filters.states.${state}`)}
            onChange={(state) => setFields({ ...fields, state })}
          />
          <FilterText
            label={t('filters.subject')}
            maxLength={100}
            value={fields.subject}
            onChange={(subject) => setFields({ ...fields, subject })}
          />
          {actions}
        </div>
      )}
    </FilterPanel>
  );
}
