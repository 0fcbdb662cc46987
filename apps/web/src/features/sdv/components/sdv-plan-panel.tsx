import { SDV_FIRST_SUBJECTS_MAX, type SdvPlanMode, type SdvPlanResponse } from '@cdms/contract';
import type { Language } from '@cdms/study';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { useToast } from '../../../components/toast.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { useSaveSdvPlan, useSdvPlan } from '../api/sdv-progress.ts';
import styles from './sdv.module.css';

/**
 * The study's SDV plan (issue 15): every item, or the critical items plus every item of the first N
 * subjects of each site. Everyone sees what progress is measured against; DM and ADMIN (`canEdit`)
 * change it here.
 */
export function SdvPlanPanel({ studyId }: { studyId: number }) {
  const { t } = useTranslation('sdv');
  const plan = useSdvPlan(studyId);
  const headingId = useId();
  return (
    <section className={`${listStyles.card} ${styles.plan}`} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.planTitle}>
        {t('plan.title')}
      </h2>
      {plan.isPending ? (
        <p className={styles.muted}>{t('page.loading')}</p>
      ) : plan.isError ? (
        <p role="alert">{plan.error.message}</p>
      ) : (
        <PlanBody studyId={studyId} plan={plan.data} />
      )}
    </section>
  );
}

function PlanBody({ studyId, plan }: { studyId: number; plan: SdvPlanResponse }) {
  const { t, i18n } = useTranslation('sdv');
  const language: Language = i18n.language === 'en' ? 'en' : 'ko';
  const [editing, setEditing] = useState(false);
  return (
    <div className={styles.planBody}>
      <p className={styles.planSummary}>
        {plan.mode === 'all'
          ? t('plan.all')
          : t('plan.critical', { count: plan.criticalItems.length, first: plan.firstSubjectsPerSite })}
      </p>
      <p className={styles.muted}>
        {plan.updatedAt
          ? t('plan.updated', { name: plan.updatedBy ?? '', at: formatDateTimeKst(plan.updatedAt) })
          : t('plan.default')}
      </p>
      {plan.criticalItems.length > 0 ? (
        <details className={styles.criticalItems}>
          <summary>{t('plan.criticalItems', { count: plan.criticalItems.length })}</summary>
          <ul>
            {plan.criticalItems.map((item) => (
              <li key={`${item.formKey}.${item.itemKey}`}>
                {item.formLabel[language]} · {item.itemLabel[language]}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {plan.canEdit && !editing ? (
        <div>
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
            {t('plan.edit')}
          </Button>
        </div>
      ) : null}
      {plan.canEdit && editing ? (
        <PlanForm studyId={studyId} plan={plan} onDone={() => setEditing(false)} />
      ) : null}
    </div>
  );
}

function PlanForm({ studyId, plan, onDone }: { studyId: number; plan: SdvPlanResponse; onDone: () => void }) {
  const { t } = useTranslation('sdv');
  const id = useId();
  const toast = useToast();
  const save = useSaveSdvPlan(studyId);
  const [mode, setMode] = useState<SdvPlanMode>(plan.mode);
  const [first, setFirst] = useState(String(plan.firstSubjectsPerSite));
  const [problem, setProblem] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const count = Number(first);
    if (mode === 'critical' && (!/^\d+$/.test(first) || count > SDV_FIRST_SUBJECTS_MAX)) {
      setProblem(t('plan.firstInvalid', { max: SDV_FIRST_SUBJECTS_MAX }));
      return;
    }
    setProblem(null);
    try {
      await save.mutateAsync({ mode, firstSubjectsPerSite: mode === 'critical' ? count : 0 });
      toast(t('plan.saved'), 'success');
      onDone();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }

  return (
    <form className={styles.planForm} noValidate onSubmit={(event) => void submit(event)}>
      <fieldset className={styles.fieldset}>
        <legend className={listStyles.label}>{t('plan.mode')}</legend>
        <label className={styles.radio}>
          <input type="radio" name={`${id}-mode`} checked={mode === 'all'} onChange={() => setMode('all')} />
          {t('plan.modes.all')}
        </label>
        <label className={styles.radio}>
          <input
            type="radio"
            name={`${id}-mode`}
            checked={mode === 'critical'}
            onChange={() => setMode('critical')}
          />
          {t('plan.modes.critical')}
        </label>
      </fieldset>
      <div className={listStyles.field}>
        <label className={listStyles.label} htmlFor={`${id}-first`}>
          {t('plan.first')}
        </label>
        <input
          id={`${id}-first`}
          className={`${listStyles.input} ${styles.numberInput}`}
          inputMode="numeric"
          disabled={mode !== 'critical'}
          value={mode === 'critical' ? first : '0'}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-problem` : undefined}
          onChange={(event) => setFirst(event.target.value.replace(/\D/g, ''))}
        />
      </div>
      {problem ? (
        <p id={`${id}-problem`} className={styles.problem} role="alert">
          {problem}
        </p>
      ) : null}
      <div className={styles.planActions}>
        <Button variant="secondary" size="sm" onClick={onDone}>
          {t('plan.cancel')}
        </Button>
        <Button type="submit" size="sm" disabled={save.isPending}>
          {t('plan.save')}
        </Button>
      </div>
    </form>
  );
}
