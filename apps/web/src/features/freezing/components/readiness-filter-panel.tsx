import { readinessHoldFilters, readinessStateFilters } from '@cdms/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FilterChoice,
  FilterPanel,
  FilterText,
  listStyles,
  SiteFilterChoice,
} from '../../../components/list-page.tsx';
import type { ReadinessFilters } from '../lib/readiness-filters.ts';

type Fields = Pick<ReadinessFilters, 'siteId' | 'subject' | 'state' | 'hold'>;
const EMPTY: Fields = { siteId: null, subject: '', state: 'all', hold: 'all' };

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
  const [fields, setFields] = useState<Fields>({
    siteId: applied.siteId,
    subject: applied.subject,
    state: applied.state,
    hold: applied.hold,
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
            label={t('board.filters.site')}
            allSitesLabel={t('board.filters.allSites')}
            sites={sites.map((site) => ({ id: site.siteId, label: site.label }))}
            value={fields.siteId}
            onChange={(siteId) => setFields({ ...fields, siteId })}
          />
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
          <FilterText
            label={t('board.filters.subject')}
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
