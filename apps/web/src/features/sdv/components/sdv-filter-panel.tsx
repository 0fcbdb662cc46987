import { type SiteSummary, sdvSubjectStateFilters } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { FilterChoice } from '../../../components/list-page.tsx';
import { SiteSubjectFilterPanel } from '../../../components/site-subject-filters.tsx';
import type { SdvFilters } from '../lib/sdv-filters.ts';

type Fields = Pick<SdvFilters, 'siteId' | 'subject' | 'state'>;
/** The panel's fields, cleared. */
export const EMPTY_SDV_FILTER_FIELDS: Fields = { siteId: null, subject: '', state: 'all' };

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
  return (
    <SiteSubjectFilterPanel
      applied={applied}
      empty={EMPTY_SDV_FILTER_FIELDS}
      sites={sites.map((site) => ({ id: site.id, label: `${site.code} ${site.name}` }))}
      labels={{ site: t('filters.site'), allSites: t('filters.allSites'), subject: t('filters.subject') }}
      onApply={onApply}
      choices={(fields, setFields) => (
        <FilterChoice
          label={t('filters.state')}
          choices={sdvSubjectStateFilters}
          value={fields.state}
          optionLabel={(state) => t(`filters.states.${state}`)}
          onChange={(state) => setFields({ ...fields, state })}
        />
      )}
    />
  );
}
