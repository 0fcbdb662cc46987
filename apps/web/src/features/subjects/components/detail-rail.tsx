import { type Language, resolveVisit, type StudyDefinition, type VisitGroup } from '@cdms/study';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { toggled } from '../../../lib/toggled.ts';
import styles from './subject-detail.module.css';

/** The rail's top categories, in the spec's order (prototype-spec §2 "Subject detail"). */
const CATEGORY_ORDER: readonly VisitGroup[] = [
  'consent',
  'screening',
  'baseline',
  'follow_up',
  'end_of_study',
  'all',
];

/**
 * The left rail: categories from the visit groups, the category's visits (each expands to its forms),
 * the current form marked. Choosing another category collapses every visit (spec §2).
 */
export function DetailRail({
  definition,
  language,
  visitKey,
  formKey,
  formUrl,
  unscheduledVisitKeys,
}: {
  definition: StudyDefinition;
  language: Language;
  visitKey: string;
  formKey: string;
  formUrl: (visitKey: string, formKey: string) => string;
  /** The subject's unscheduled visits by date (`unscheduled-<n>`), once the overview has them. */
  unscheduledVisitKeys: readonly string[];
}) {
  const { t } = useTranslation('subjects');
  const currentVisit = resolveVisit(definition, visitKey);
  const currentGroup = currentVisit?.group ?? 'consent';
  const [category, setCategory] = useState<VisitGroup>(currentGroup);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set([visitKey]));
  const groups = CATEGORY_ORDER.filter((group) => definition.visits.some((visit) => visit.group === group));
  const forms = new Map(definition.forms.map((form) => [form.key, form]));
  // The subject's unscheduled visits are not in the schedule: they follow the category's scheduled
  // visits by date (the one being entered even before the overview's list has arrived).
  const unscheduled = [...new Set([...unscheduledVisitKeys, ...(currentVisit ? [visitKey] : [])])]
    .filter((key) => !definition.visits.some((visit) => visit.key === key))
    .map((key) => resolveVisit(definition, key))
    .filter((visit) => visit !== undefined);
  const visits = [...definition.visits, ...unscheduled].filter((visit) => visit.group === category);

  const toggle = (key: string) => setExpanded((current) => toggled(current, key));

  return (
    <nav className={styles.rail} aria-label={t('detail.rail')}>
      <ul className={styles.categories} aria-label={t('detail.categories')}>
        {groups.map((group) => (
          <li key={group}>
            <button
              type="button"
              className={styles.category}
              aria-pressed={group === category}
              data-current={group === currentGroup || undefined}
              onClick={() => {
                setCategory(group);
                setExpanded(new Set());
              }}
            >
              {t(`groups.${group}`)}
            </button>
          </li>
        ))}
      </ul>
      <ul className={styles.visits}>
        {visits.map((visit) => {
          const open = expanded.has(visit.key);
          const listId = `rail-${visit.key}`;
          return (
            <li key={visit.key}>
              <button
                type="button"
                className={styles.visitToggle}
                aria-expanded={open}
                aria-controls={listId}
                onClick={() => toggle(visit.key)}
              >
                <span className={styles.chevron} aria-hidden="true">
                  {open ? '▾' : '▸'}
                </span>
                {visit.label[language]}
              </button>
              {open ? (
                <ul id={listId} className={styles.forms}>
                  {visit.forms.map((key) => {
                    const current = visit.key === visitKey && key === formKey;
                    return (
                      <li key={key}>
                        <Link
                          to={formUrl(visit.key, key)}
                          className={styles.formLink}
                          aria-current={current ? 'page' : undefined}
                        >
                          {forms.get(key)?.label[language] ?? key}
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
