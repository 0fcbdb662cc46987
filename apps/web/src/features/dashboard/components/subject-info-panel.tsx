import { type DashboardResponse, type VisitAlarmState, visitAlarmStates } from '@cdms/contract';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { paths, studyPath } from '../../../lib/paths.ts';
import styles from './dashboard-page.module.css';
import { Empty, Panel } from './panel.tsx';

interface SubjectInfoPanelProps {
  study: { id: number; code: string; title: string; content: string | undefined; randomizes: boolean };
  /** Undefined while the figures load (or when they failed: `problem` says so). */
  dashboard: DashboardResponse | undefined;
  problem: string | null;
}

/**
 * Row 2, left (spec §2 "Dashboard"): the study (title, code, content), subjects, the system vs
 * manual query table with open / answered rows, the AE/SAE summary with the subjects who had
 * events, and the visit-alarm counts linking to the subject-alarm page.
 */
export function SubjectInfoPanel({ study, dashboard, problem }: SubjectInfoPanelProps) {
  const { t } = useTranslation('dashboard');
  const waiting = problem ?? t('loading');
  return (
    <Panel title={t('subjectInfo.title')}>
      <dl className={styles.studyFacts}>
        <div>
          <dt>{t('subjectInfo.studyTitle')}</dt>
          <dd>{study.title}</dd>
        </div>
        <div>
          <dt>{t('subjectInfo.code')}</dt>
          <dd>{study.code}</dd>
        </div>
        <div>
          <dt>{t('subjectInfo.content')}</dt>
          <dd className={styles.content}>{study.content ?? t('loading')}</dd>
        </div>
        <div>
          <dt>{t('subjectInfo.subjects')}</dt>
          <dd>
            {!dashboard
              ? waiting
              : study.randomizes
                ? t('subjectInfo.subjectsValue', {
                    total: dashboard.subjects.total,
                    randomized: dashboard.subjects.randomized,
                  })
                : t('subjectInfo.subjectsTotal', { total: dashboard.subjects.total })}
          </dd>
        </div>
      </dl>
      <div className={styles.subPanels}>
        <section>
          <h3 className={styles.subTitle}>{t('queries.title')}</h3>
          {dashboard ? (
            <QueryTable studyId={study.id} queries={dashboard.queries} />
          ) : (
            <Empty text={waiting} compact />
          )}
        </section>
        <section>
          <h3 className={styles.subTitle}>{t('events.title')}</h3>
          {dashboard ? <SafetySummary safety={dashboard.safety} /> : <Empty text={waiting} compact />}
        </section>
      </div>
      <section className={styles.alarmSection}>
        <h3 className={styles.subTitle}>{t('alarms.title')}</h3>
        {dashboard ? (
          <AlarmLinks studyId={study.id} counts={dashboard.visitAlarms} />
        ) : (
          <Empty text={waiting} compact />
        )}
      </section>
    </Panel>
  );
}

/** The query counts, each a link to the query list filtered to its kind and state. */
function QueryTable({ studyId, queries }: { studyId: number; queries: DashboardResponse['queries'] }) {
  const { t } = useTranslation('dashboard');
  const [params] = useSearchParams();
  const menuType = params.get('menu-type') ?? undefined;
  const link = (kind: 'system' | 'manual', state: 'open' | 'answered', count: number) => (
    <Link
      to={studyPath(paths.query, studyId, { state, kind, 'menu-type': menuType })}
      aria-label={t('queries.linkLabel', {
        count,
        kind: t(`queries.${kind}`),
        state: t(`queries.${state}`),
      })}
    >
      {count}
    </Link>
  );
  return (
    <table className={styles.figureTable}>
      <caption className={styles.srOnly}>{t('queries.caption')}</caption>
      <thead>
        <tr>
          <td />
          <th scope="col">{t('queries.system')}</th>
          <th scope="col">{t('queries.manual')}</th>
        </tr>
      </thead>
      <tbody>
        {(['open', 'answered'] as const).map((status) => (
          <tr key={status}>
            <th scope="row">{t(`queries.${status}`)}</th>
            <td>{link('system', status, queries.system[status])}</td>
            <td>{link('manual', status, queries.manual[status])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SafetySummary({ safety }: { safety: DashboardResponse['safety'] }) {
  const { t } = useTranslation('dashboard');
  return (
    <table className={styles.figureTable}>
      <caption className={styles.srOnly}>{t('events.caption')}</caption>
      <thead>
        <tr>
          <td />
          <th scope="col">{t('events.adverseEvents')}</th>
          <th scope="col">{t('events.seriousAdverseEvents')}</th>
        </tr>
      </thead>
      <tbody>
        <tr>
          <th scope="row">{t('events.events')}</th>
          <td>{safety.adverseEvents}</td>
          <td>{safety.seriousAdverseEvents}</td>
        </tr>
        <tr>
          <th scope="row">{t('events.subjects')}</th>
          <td>{safety.subjectsWithAdverseEvents}</td>
          <td>{safety.subjectsWithSeriousAdverseEvents}</td>
        </tr>
      </tbody>
    </table>
  );
}

function AlarmLinks({ studyId, counts }: { studyId: number; counts: DashboardResponse['visitAlarms'] }) {
  const { t } = useTranslation('dashboard');
  const [params] = useSearchParams();
  const menuType = params.get('menu-type') ?? undefined;
  const link = (state: VisitAlarmState) =>
    studyPath(paths.taskAlarm, studyId, { state, 'menu-type': menuType });
  return (
    <ul className={styles.alarmLinks}>
      {visitAlarmStates.map((state) => (
        <li key={state}>
          <Link to={link(state)} className={styles.alarmLink} data-state={state}>
            <span className={styles.alarmCount}>{counts[state]}</span>
            <span>{t(`alarms.${state}`)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
