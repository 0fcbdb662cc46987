import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { DataTableColumn } from '../../../components/data-table/data-table.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { MENU_TYPE_PARAM, overviewUrl } from '../../../lib/subject-urls.ts';
import styles from './reports.module.css';

// What the five report views share.

export type Language = 'ko' | 'en';

export function useLanguage(): Language {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'ko';
}

/** A titled panel of a report (a chart and its table). */
export function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.panel} aria-label={title}>
      <h2 className={styles.panelTitle}>{title}</h2>
      {children}
    </section>
  );
}

export function SubjectLink({
  studyId,
  subjectPk,
  subjectId,
}: {
  studyId: number;
  subjectPk: number;
  subjectId: string;
}) {
  const [searchParams] = useSearchParams();
  const to = overviewUrl(studyId, { id: subjectPk, subjectId }, searchParams.get(MENU_TYPE_PARAM));
  return (
    <Link to={to} className={listStyles.rowLink}>
      {subjectId}
    </Link>
  );
}

/** The shared pager of a paged listing (missing forms, deviations, adverse events). */
export function listingPager(data: { total: number; size: number }) {
  return { total: data.total, pageSize: data.size };
}

/** The site and subject columns that lead each paged listing; the subject links to its overview. */
export function siteAndSubjectColumns<Row extends { siteCode: string; subjectPk: number; subjectId: string }>(
  t: (key: 'columns.site' | 'columns.subject') => string,
  studyId: number,
): DataTableColumn<Row>[] {
  return [
    { id: 'site', header: t('columns.site'), cell: (row) => row.siteCode },
    {
      id: 'subject',
      header: t('columns.subject'),
      hideable: false,
      cell: (row) => <SubjectLink studyId={studyId} subjectPk={row.subjectPk} subjectId={row.subjectId} />,
    },
  ];
}
