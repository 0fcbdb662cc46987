import type { OverviewResponse, UnscheduledVisit } from '@cdms/contract';
import { type Language, resolveVisit, type StudyDefinition } from '@cdms/study';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { ColumnsOutOfView, useColumnsOutOfView } from '../../../components/columns-out-of-view.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { HoldMarkBadge, SdvMark } from '../../../components/record-marks.tsx';
import { paths } from '../../../lib/paths.ts';
import { useStudyDefinition } from '../../../lib/study-definition.ts';
import {
  detailUrl,
  MENU_TYPE_PARAM,
  overviewUrl,
  readId,
  SUBJECT_PK_PARAM,
  subjectListUrl,
} from '../../../lib/subject-urls.ts';
import { useSubjectOverview, useSubjects } from '../api/subjects.ts';
import { type OverviewColumn, overviewColumns } from '../lib/overview-columns.ts';
import { AudiogramComparison } from './audiogram-comparison.tsx';
import { EmergencyUnblinding } from './emergency-unblinding.tsx';
import { type FormStatus, FormStatusIcon, FormStatusLegend } from './form-status-icon.tsx';
import { SubjectHeader } from './subject-header.tsx';
import { SubjectHoldControls } from './subject-hold-controls.tsx';
import styles from './subjects.module.css';
import {
  ADD_UNSCHEDULED_VISIT_MODAL,
  AddUnscheduledVisitDialog,
  DELETE_UNSCHEDULED_VISIT_MODAL,
  DeleteUnscheduledVisitDialog,
} from './unscheduled-visit-dialogs.tsx';

/** `/subject-list/subject/:studyId`: the subjects on the left, the chosen one's visit × form matrix. */
export function SubjectOverviewPage() {
  const studyId = readId(useParams().studyId);
  if (studyId === null) return <Navigate to={paths.notFound} replace />;
  return <SubjectOverview studyId={studyId} />;
}

function SubjectOverview({ studyId }: { studyId: number }) {
  const { t, i18n } = useTranslation('subjects');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const menuType = params.get(MENU_TYPE_PARAM);
  const subjectPk = readId(params.get(SUBJECT_PK_PARAM));
  const headingId = useId();
  const subjects = useSubjects(studyId);
  const definition = useStudyDefinition(studyId);
  const overview = useSubjectOverview(studyId, subjectPk);
  const modals = useModalStack();
  const [deleting, setDeleting] = useState<OverviewColumn | null>(null);
  const loaded = overview.data && definition.data ? overview.data : null;
  const columns =
    overview.data && definition.data
      ? overviewColumns(definition.data.definition, overview.data, language)
      : [];
  const canAdd = loaded?.unscheduledVisitAbilities.add === true;
  const addBlocked = loaded === null ? t('overview.addVisitNoSubject') : t('overview.addVisitNotAllowed');

  return (
    <section className={styles.page} aria-labelledby={headingId}>
      <div className={styles.pageHeader}>
        <h1 id={headingId} className={styles.pageTitle}>
          {t('overview.title')}
        </h1>
        <div className={styles.actions}>
          {canAdd ? (
            <Button variant="secondary" onClick={() => modals.open(ADD_UNSCHEDULED_VISIT_MODAL)}>
              + {t('overview.addVisit')}
            </Button>
          ) : (
            // Shown to everyone (spec §2); who may not add, or before a subject is chosen, is told why.
            <span className={styles.disabledWrap} title={addBlocked}>
              <Button variant="secondary" disabled aria-describedby={`${headingId}-add-visit`}>
                + {t('overview.addVisit')}
              </Button>
              <span id={`${headingId}-add-visit`} className={styles.visuallyHidden}>
                {addBlocked}
              </span>
            </span>
          )}
          {subjectPk !== null && definition.data ? (
            <AudiogramComparison
              key={subjectPk}
              studyId={studyId}
              subjectPk={subjectPk}
              definition={definition.data.definition}
              language={language}
              overview={overview.data}
            />
          ) : null}
          <Link to={subjectListUrl(studyId, menuType)} className={styles.linkButtonSecondary}>
            {t('overview.backToList')}
          </Link>
        </div>
      </div>

      <div className={styles.split}>
        <nav className={styles.subjectNav} aria-label={t('overview.subjects')}>
          <h2 className={styles.navTitle}>{t('overview.subjects')}</h2>
          {subjects.isPending ? (
            <p className={styles.state}>{t('loading')}</p>
          ) : subjects.isError ? (
            <p className={styles.state} role="alert">
              {t('loadError')}
            </p>
          ) : subjects.data.length === 0 ? (
            <p className={styles.state}>{t('noData')}</p>
          ) : (
            <ul className={styles.subjectNavList}>
              {subjects.data.map((subject) => (
                <li key={subject.id}>
                  <button
                    type="button"
                    className={styles.subjectNavItem}
                    aria-current={subject.id === subjectPk ? 'true' : undefined}
                    // Switching subjects replaces the history entry (spec §2): Back leaves the board.
                    onClick={() => void navigate(overviewUrl(studyId, subject, menuType), { replace: true })}
                  >
                    <span className={styles.subjectNavId}>{subject.subjectId}</span>
                    <span className={styles.muted}>
                      {subject.initials} · {subject.siteCode}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </nav>

        <div className={styles.mainColumn}>
          {subjectPk === null ? (
            <p className={`${styles.card} ${styles.state}`}>{t('overview.chooseSubject')}</p>
          ) : overview.isPending || definition.isPending ? (
            <p className={`${styles.card} ${styles.state}`}>{t('loading')}</p>
          ) : overview.isError || definition.isError ? (
            <div className={`${styles.card} ${styles.state}`} role="alert">
              <p>{overview.error?.message ?? definition.error?.message ?? t('loadError')}</p>
              <Button variant="secondary" onClick={() => void overview.refetch()}>
                {t('retry')}
              </Button>
            </div>
          ) : (
            <>
              <SubjectHeader subject={overview.data.subject}>
                <SubjectHoldControls studyId={studyId} overview={overview.data} />
                <EmergencyUnblinding studyId={studyId} overview={overview.data} />
              </SubjectHeader>
              <div className={styles.card}>
                <StatusMatrix
                  definition={definition.data.definition}
                  columns={columns}
                  canDelete={overview.data.unscheduledVisitAbilities.delete}
                  onDelete={(column) => {
                    setDeleting(column);
                    modals.open(DELETE_UNSCHEDULED_VISIT_MODAL);
                  }}
                  matrix={overview.data.matrix}
                  marks={overview.data.marks}
                  language={language}
                  cellUrl={(visitKey, formKey) =>
                    detailUrl(studyId, overview.data.subject, visitKey, formKey, menuType)
                  }
                />
              </div>
              <AddUnscheduledVisitDialog
                studyId={studyId}
                overview={overview.data}
                visitLabel={(visit: UnscheduledVisit) =>
                  resolveVisit(definition.data.definition, visit.visitKey)?.label[language] ?? visit.visitKey
                }
              />
              <DeleteUnscheduledVisitDialog
                studyId={studyId}
                subjectPk={overview.data.subject.id}
                visit={deleting?.unscheduled ?? null}
                label={deleting?.label ?? ''}
              />
              <div className={styles.matrixFooter}>
                <FormStatusLegend />
                <MarksLegend />
                <span className={styles.muted}>
                  {t('overview.definitionVersion', { version: overview.data.definitionVersion })}
                </span>
              </div>
            </>
          )}
        </div>
      </div>
    </section>
  );
}

/**
 * The forms that appear in at least one column, in the order the schedule first uses them (an
 * unscheduled visit holds forms of the schedule).
 */
export function matrixRows(
  definition: StudyDefinition,
  matrix: Record<string, Record<string, FormStatus>>,
  columns: readonly string[] = definition.visits.map((visit) => visit.key),
): string[] {
  const rows: string[] = [];
  for (const formKey of [
    ...definition.visits.flatMap((visit) => visit.forms),
    ...definition.forms.map((f) => f.key),
  ]) {
    if (rows.includes(formKey)) continue;
    const used = columns.some((visitKey) => (matrix[visitKey]?.[formKey] ?? 'empty') !== 'empty');
    if (used) rows.push(formKey);
  }
  return rows;
}

function StatusMatrix({
  definition,
  columns,
  canDelete,
  onDelete,
  matrix,
  marks,
  language,
  cellUrl,
}: {
  definition: StudyDefinition;
  /** Scheduled and unscheduled visits in the order shown (`overviewColumns`). */
  columns: OverviewColumn[];
  /** Whether the reader may delete an empty unscheduled visit. */
  canDelete: boolean;
  onDelete: (column: OverviewColumn) => void;
  matrix: Record<string, Record<string, FormStatus>>;
  /** SDV and hold marks by visit and form (issue 15): shown beside the icon, not as new icons. */
  marks: OverviewResponse['marks'];
  language: Language;
  cellUrl: (visitKey: string, formKey: string) => string;
}) {
  const { t } = useTranslation(['subjects', 'sdv', 'holds']);
  const forms = new Map(definition.forms.map((form) => [form.key, form]));
  /** The marks in words, for the cell's link name (the pills are decorative there). */
  const marksText = (mark: OverviewResponse['marks'][string][string] | undefined) =>
    [
      mark && mark.sdv !== 'notRequired' ? t(`sdv:formStates.${mark.sdv}`) : null,
      mark?.hold
        ? t('holds:mark.full', {
            kind: t(`holds:kinds.${mark.hold.kind}`),
            level: t(`holds:levels.${mark.hold.level}`),
          })
        : null,
    ]
      .filter((text) => text !== null)
      .join(' · ');
  const rows = matrixRows(
    definition,
    matrix,
    columns.map((column) => column.visitKey),
  );
  // The visits that do not fit scroll sideways between the form names (sticky left) and the study-wide
  // column (sticky right); the count above says how many lie beyond each edge.
  const frame = useRef<HTMLDivElement>(null);
  const outOfView = useColumnsOutOfView(frame);
  const stickyEnd = (column: OverviewColumn) => (column.studyWide ? styles.studyWide : undefined);
  return (
    <>
      <ColumnsOutOfView left={outOfView.left} right={outOfView.right} />
      <div ref={frame} className={styles.tableWrap} data-columns-right={outOfView.right}>
        <table className={styles.matrix}>
          <thead>
            <tr>
              <th scope="col" className={styles.matrixFormHead} data-sticky="start">
                {t('overview.form')}
              </th>
              {columns.map((column) =>
                column.unscheduled ? (
                  <th
                    key={column.visitKey}
                    scope="col"
                    className={styles.unscheduledHead}
                    data-visit={column.visitKey}
                    title={t('unscheduled.headerTitle', { reason: column.unscheduled.reason })}
                  >
                    {/* Name and date on lines of their own; read as one: "비정기 방문 1 · 2026-10-03". */}
                    <span className={styles.unscheduledName}>{column.label}</span>
                    <span className={styles.visuallyHidden}> · </span>
                    <span className={styles.unscheduledDate}>{column.unscheduled.visitDate}</span>
                    {canDelete && !column.unscheduled.hasData ? (
                      <button
                        type="button"
                        className={styles.unscheduledDelete}
                        aria-label={t('unscheduled.deleteLabel', { visit: column.label })}
                        onClick={() => onDelete(column)}
                      >
                        {t('unscheduled.delete')}
                      </button>
                    ) : null}
                  </th>
                ) : (
                  <th
                    key={column.visitKey}
                    scope="col"
                    className={stickyEnd(column)}
                    data-visit={column.visitKey}
                    data-sticky={column.studyWide ? 'end' : undefined}
                  >
                    {column.label}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((formKey) => {
              const formLabel = forms.get(formKey)?.label[language] ?? formKey;
              return (
                <tr key={formKey} data-form-row={formKey}>
                  <th scope="row">{formLabel}</th>
                  {columns.map((visit) => {
                    const status = matrix[visit.visitKey]?.[formKey] ?? 'empty';
                    const mark = marks[visit.visitKey]?.[formKey];
                    const statusLabel = t('overview.cellLabel', {
                      visit: visit.label,
                      form: formLabel,
                      status: t(`formStatus.${status}`),
                    });
                    const extra = marksText(mark);
                    const label = extra
                      ? t('overview.cellMarks', { label: statusLabel, marks: extra })
                      : statusLabel;
                    return (
                      <td
                        key={visit.visitKey}
                        data-status={status}
                        data-visit={visit.visitKey}
                        data-unscheduled={visit.unscheduled ? true : undefined}
                        data-sdv={mark?.sdv}
                        data-hold={mark?.hold?.kind}
                        className={`${styles.matrixCell} ${stickyEnd(visit) ?? ''}`}
                      >
                        {status === 'empty' ? (
                          <span className={styles.visuallyHidden}>{label}</span>
                        ) : (
                          <Link
                            to={cellUrl(visit.visitKey, formKey)}
                            className={styles.matrixLink}
                            aria-label={label}
                          >
                            <FormStatusIcon status={status} decorative />
                            {extra ? (
                              <span className={styles.cellMarks} aria-hidden="true">
                                {mark ? <SdvMark state={mark.sdv} compact /> : null}
                                {mark?.hold ? <HoldMarkBadge mark={mark.hold} compact /> : null}
                              </span>
                            ) : null}
                          </Link>
                        )}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

/** What the marks beside the icons mean (SDV against the plan, freeze, lock). */
function MarksLegend() {
  const { t } = useTranslation(['subjects', 'sdv', 'holds']);
  return (
    <div className={styles.legend}>
      <span className={styles.legendTitle}>{t('overview.marksLegend')}</span>
      <ul className={styles.legendList}>
        {(['complete', 'partial', 'notStarted'] as const).map((state) => (
          <li key={state}>
            <span aria-hidden="true">
              <SdvMark state={state} compact />
            </span>
            <span>{t(`sdv:formStates.${state}`)}</span>
          </li>
        ))}
        {(['frozen', 'locked'] as const).map((kind) => (
          <li key={kind}>
            <span aria-hidden="true">
              <HoldMarkBadge mark={{ kind, level: 'form' }} compact />
            </span>
            <span>{t(`holds:kinds.${kind}`)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
