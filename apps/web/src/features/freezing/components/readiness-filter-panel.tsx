import { readinessHoldFilters, readinessStateFilters } from '@cdms/contract';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterPanel, listStyles } from '../../../components/list-page.tsx';
import type {
  ReadinessFilters,
  ReadinessHoldChoice,
  ReadinessStateChoice,
} from '../lib/readiness-filters.ts';

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
  const id = useId();
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
          <div className={listStyles.field}>
            <label className={listStyles.label} htmlFor={`${id}-site`}>
              {t('board.filters.site')}
            </label>
            <select
              id={`${id}-site`}
              className={listStyles.select}
              value={fields.siteId === null ? '' : String(fields.siteId)}
              onChange={(event) =>
                setFields({ ...fields, siteId: event.target.value ? Number(event.target.value) : null })
              }
            >
              <option value="">{t('board.filters.allSites')}</option>
              {sites.map((site) => (
                <option key={site.siteId} value={site.siteId}>
                  {site.label}
                </option>
              ))}
            </select>
          </div>
          <div className={listStyles.field}>
            <label className={listStyles.label} htmlFor={`${id}-state`}>
              {t('board.filters.state')}
            </label>
            <select
              id={`${id}-state`}
              className={listStyles.select}
              value={fields.state}
              onChange={(event) =>
                setFields({ ...fields, state: event.target.value as ReadinessStateChoice })
              }
            >
              {readinessStateFilters.map((state) => (
                <option key={state} value={state}>
                  {t(`board.filters.states.${state}`)}
                </option>
              ))}
            </select>
          </div>
          <div className={listStyles.field}>
            <label className={listStyles.label} htmlFor={`${id}-hold`}>
              {t('board.filters.hold')}
            </label>
            <select
              id={`${id}-hold`}
              className={listStyles.select}
              value={fields.hold}
              onChange={(event) => setFields({ ...fields, hold: event.target.value as ReadinessHoldChoice })}
            >
              {readinessHoldFilters.map((hold) => (
                <option key={hold} value={hold}>
                  {t(`board.filters.holds.${hold}`)}
                </option>
              ))}
            </select>
          </div>
          <div className={`${listStyles.field} ${listStyles.fieldGrow}`}>
            <label className={listStyles.label} htmlFor={`${id}-subject`}>
              {t('board.filters.subject')}
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
