import { readinessHoldFilters, readinessStateFilters } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { FilterChoice } from '../../../components/list-page.tsx';
import { SiteSubjectFilterPanel } from '../../../components/site-subject-filters.tsx';
import type { ReadinessFilters } from '../lib/readiness-filters.ts';

type Fields = Pick<ReadinessFilters, 'siteId' | 'subject' | 'state' | 'hold'>;
/** The panel's fields, cleared. */
export const EMPTY_READINESS_FILTER_FIELDS: Fields = { siteId: null, subject: '', state: 'all', hold: 'all' };

/** The board's search form: site, subject, ready or not, and what holds the subject. */
export function ReadinessFilterPanel({
  applied,
  sites,
  onApply,
}: {
  applied: Fields;
  sites: readonly { siteId: number; label: string }[];
  onApply: (fields: Fields) => void;
}) {
  const { t } = useTranslation('holds');
  return (
    <SiteSubjectFilterPanel
      applied={applied}
      empty={EMPTY_READINESS_FILTER_FIELDS}
      sites={sites.map((site) => ({ id: site.siteId, label: site.label }))}
      labels={{
        site: t('board.filters.site'),
        allSites: t('board.filters.allSites'),
        subject: t('board.filters.subject'),
      }}
      onApply={onApply}
      choices={(fields, setFields) => (
        <>
          <FilterChoice
            label={t('board.filters.state')}
            choices={readinessStateFilters}
            value={fields.state}
            optionLabel={(state) => t(`board.filters.states.${state}`)}
            onChange={(state) => setFields({ ...fields, state })}
          />
          <FilterChoice
            label={t('board.filters.hold')}
            choices={readinessHoldFilters}
            value={fields.hold}
            optionLabel={(hold) => t(`board.filters.holds.${hold}`)}
            onChange={(hold) => setFields({ ...fields, hold })}
          />
        </>
      )}
    />
  );
}
