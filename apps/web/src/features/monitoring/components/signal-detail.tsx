import { QUERY_TEXT_MAX, type Signal } from '@cdms/contract';
import { lazy, Suspense, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/button.tsx';
import { errorText } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { useToast } from '../../../components/toast.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { detailUrl, overviewUrl } from '../../../lib/subject-urls.ts';
import { useDismissSignal, useNoteSignal, useRaiseSignalQueries } from '../api/monitoring-api.ts';
import { formatNumber, localized, strengthPercent } from '../lib/indicators.ts';
import { signalChartData, signalChartSummary } from '../lib/signal-chart-data.ts';
import styles from './monitoring.module.css';

// Chart.js comes with the first signal opened, not with the page (signal-chart.tsx).
const SignalChart = lazy(async () => ({ default: (await import('./signal-chart.tsx')).SignalChart }));

export const SIGNAL_MODAL = 'monitoring-signal';
const RAISE_MODAL = 'monitoring-signal-raise';
const NOTE_MODAL = 'monitoring-signal-note';
const DISMISS_MODAL = 'monitoring-signal-dismiss';

/** How many queries raising from the signal makes: one per item it names and subject it names. */
export function queriesToRaise(signal: Pick<Signal, 'items' | 'subjects'>): number {
  return signal.items.length * signal.subjects.length;
}

/**
 * One signal, beside the list (a side panel): what was found and how, the numbers behind it, its
 * chart, the items and subjects it names (each subject's form where the visit is known), and — for
 * those the page allows (`canActOnSignals`) — raising queries on those items, a note for the next
 * visit, or dismissing it with a reason. Each action goes through the shared dialog pattern; the
 * page's reads are fetched again afterwards.
 */
export function SignalDetail({
  studyId,
  signal,
  canAct,
  menuType,
  onDismissed,
}: {
  studyId: number;
  signal: Signal | null;
  canAct: boolean;
  menuType: string | null;
  /** The signal left the active list: the page keeps showing it, as dismissed. */
  onDismissed: (signal: Signal, reason: string) => void;
}) {
  const { t, i18n } = useTranslation('monitoring');
  return (
    <Modal
      name={SIGNAL_MODAL}
      title={signal ? localized(signal.title, i18n.language) : t('detail.title')}
      placement="side"
    >
      {signal ? (
        <SignalBody
          studyId={studyId}
          signal={signal}
          canAct={canAct}
          menuType={menuType}
          onDismissed={onDismissed}
        />
      ) : null}
    </Modal>
  );
}

function SignalBody({
  studyId,
  signal,
  canAct,
  menuType,
  onDismissed,
}: {
  studyId: number;
  signal: Signal;
  canAct: boolean;
  menuType: string | null;
  onDismissed: (signal: Signal, reason: string) => void;
}) {
  const { t, i18n } = useTranslation('monitoring');
  const language = i18n.language;
  const modals = useModalStack();
  const toast = useToast();
  const raise = useRaiseSignalQueries(studyId);
  const note = useNoteSignal(studyId);
  const dismiss = useDismissSignal(studyId);
  const numbersId = useId();
  const chart = signalChartData(signal.chart, language);
  const percent = strengthPercent(signal.strength);
  const count = queriesToRaise(signal);
  const actionable = canAct && signal.state !== 'dismissed';

  async function attempt(send: () => Promise<string>): Promise<string | null> {
    try {
      toast(await send(), 'success');
      return null;
    } catch (failure) {
      return errorText(failure);
    }
  }

  return (
    <div className={styles.detail} data-signal-id={signal.id} data-state={signal.state}>
      <p className={styles.detailFacts}>
        <span className={styles.kindBadge}>{t(`kinds.${signal.kind}.name`)}</span>
        <span>{t('detail.site', { site: `${signal.site.code} · ${signal.site.name}` })}</span>
        <span>{t('detail.strength', { percent })}</span>
        <span className={styles.stateBadge} data-state={signal.state}>
          {t(`states.${signal.state}`)}
        </span>
      </p>

      <section>
        <h3 className={styles.detailHeading}>{t('detail.explanation')}</h3>
        <p className={styles.explanation}>{localized(signal.explanation, language)}</p>
        <p className={styles.muted}>{t(`kinds.${signal.kind}.description`)}</p>
      </section>

      {Object.keys(signal.numbers).length > 0 ? (
        <section>
          <h3 className={styles.detailHeading} id={numbersId}>
            {t('detail.numbers')}
          </h3>
          <table className={styles.numbersTable} aria-labelledby={numbersId}>
            <thead>
              <tr>
                <th scope="col">{t('detail.name')}</th>
                <th scope="col">{t('detail.value')}</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(signal.numbers).map(([name, value]) => (
                <tr key={name}>
                  <th scope="row">{t(`numbers.${name}`, { defaultValue: name })}</th>
                  <td>{formatNumber(value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}

      {chart.labels.length > 0 ? (
        <section>
          <h3 className={styles.detailHeading}>{t('detail.chart')}</h3>
          <div className={styles.signalChart}>
            <Suspense fallback={<p className={styles.muted}>{t('loading')}</p>}>
              <SignalChart
                kind={signal.chart.kind}
                data={chart}
                label={t('detail.chartLabel', {
                  title: localized(signal.title, language),
                  summary: signalChartSummary(chart),
                })}
              />
            </Suspense>
          </div>
        </section>
      ) : null}

      <section>
        <h3 className={styles.detailHeading}>{t('detail.items')}</h3>
        <ul className={styles.plainList}>
          {signal.items.map((item) => (
            <li key={`${item.visitKey ?? ''}-${item.formKey}-${item.itemKey}`}>
              {item.visitKey ? <span className={styles.muted}>{item.visitKey.toUpperCase()} · </span> : null}
              {localized(item.label, language)}
            </li>
          ))}
        </ul>
      </section>

      <section>
        <h3 className={styles.detailHeading}>{t('detail.subjects')}</h3>
        {signal.subjects.length === 0 ? (
          <p className={styles.muted}>{t('detail.noSubjects')}</p>
        ) : (
          <ul className={styles.plainList}>
            {signal.subjects.map((subject) => {
              const ref = { id: subject.subjectId, subjectId: subject.screeningNumber };
              const forms = signal.items.filter((item) => item.visitKey !== null);
              return (
                <li key={subject.subjectId} className={styles.subjectLine}>
                  <Link to={overviewUrl(studyId, ref, menuType)}>{subject.screeningNumber}</Link>
                  {forms.map((item) => (
                    <Link
                      key={`${item.visitKey}-${item.formKey}-${item.itemKey}`}
                      className={styles.formLink}
                      to={detailUrl(studyId, ref, item.visitKey ?? '', item.formKey, menuType, item.itemKey)}
                    >
                      {item.visitKey?.toUpperCase()} · {localized(item.label, language)}
                    </Link>
                  ))}
                </li>
              );
            })}
          </ul>
        )}
      </section>

      {signal.resolution ? (
        <section className={styles.resolution}>
          <p className={styles.muted}>
            {t('detail.resolution', {
              by: signal.resolution.by,
              at: formatDateTimeKst(signal.resolution.at),
            })}
          </p>
          <p className={styles.explanation}>{signal.resolution.text}</p>
          {signal.resolution.queryIds.length > 0 ? (
            <p className={styles.muted}>
              {t('detail.queryLinks', { count: signal.resolution.queryIds.length })}
            </p>
          ) : null}
        </section>
      ) : null}

      {actionable ? (
        <section aria-label={t('detail.actions')} className={styles.detailActions}>
          <Button onClick={() => modals.open(RAISE_MODAL)} disabled={count === 0}>
            {t('detail.raise')}
          </Button>
          <Button variant="secondary" onClick={() => modals.open(NOTE_MODAL)}>
            {t('detail.note')}
          </Button>
          <Button variant="ghost" onClick={() => modals.open(DISMISS_MODAL)}>
            {t('detail.dismiss')}
          </Button>
        </section>
      ) : null}

      {actionable ? (
        <>
          <ReasonDialog
            name={RAISE_MODAL}
            title={t('raise.title')}
            description={
              count === 0
                ? t('raise.none')
                : t('raise.howMany', { count, items: signal.items.length, subjects: signal.subjects.length })
            }
            reasonLabel={t('raise.text')}
            confirmLabel={t('raise.confirm')}
            maxLength={QUERY_TEXT_MAX}
            requiredMessage={t('text.required')}
            disabled={count === 0}
            onSubmit={(text) =>
              attempt(async () => {
                const answer = await raise.mutateAsync({ signalId: signal.id, text });
                return t('raise.done', { count: answer.queryIds.length });
              })
            }
          />
          <ReasonDialog
            name={NOTE_MODAL}
            title={t('noteDialog.title')}
            reasonLabel={t('noteDialog.text')}
            confirmLabel={t('noteDialog.confirm')}
            maxLength={QUERY_TEXT_MAX}
            requiredMessage={t('text.required')}
            onSubmit={(text) =>
              attempt(async () => {
                await note.mutateAsync({ signalId: signal.id, text });
                return t('noteDialog.done');
              })
            }
          />
          <ReasonDialog
            name={DISMISS_MODAL}
            title={t('dismissDialog.title')}
            description={t('dismissDialog.description')}
            reasonLabel={t('dismissDialog.reason')}
            confirmLabel={t('dismissDialog.confirm')}
            tone="danger"
            onSubmit={(reason) =>
              attempt(async () => {
                await dismiss.mutateAsync({ signalId: signal.id, reason });
                onDismissed(signal, reason);
                return t('dismissDialog.done');
              })
            }
          />
        </>
      ) : null}
    </div>
  );
}
