import { type KriKey, kriKeys, REASON_MAX, type ToleranceLimit } from '@cdms/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { CountedTextArea } from '../../../components/counted-text-area.tsx';
import { errorText, FormAlert } from '../../../components/form-alert.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useSaveToleranceLimits } from '../api/monitoring-api.ts';
import styles from './monitoring.module.css';

export const LIMITS_MODAL = 'monitoring-limits';

/** One indicator's limits as typed: text until sent. */
interface LimitDraft {
  key: KriKey;
  warning: string;
  limit: string;
  direction: 'high' | 'low';
  minimumDenominator: string;
}

const draftOf = (limit: ToleranceLimit): LimitDraft => ({
  key: limit.key,
  warning: String(limit.warning),
  limit: String(limit.limit),
  direction: limit.direction,
  minimumDenominator: String(limit.minimumDenominator),
});

/** A typed number of 0 or more (and whole, where asked), else null. */
function numberOf(text: string, whole = false): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 1_000_000) return null;
  return whole && !Number.isInteger(value) ? null : value;
}

/**
 * The study's quality tolerance limits (issue 50 item 1), for those the page says may change them
 * (`canManageLimits`): warning, limit, the side that is the risk and the minimum denominator per
 * indicator, and the reason the change is made (audited). The server checks again; its refusal is
 * shown in the dialog.
 */
export function LimitsDialog({ studyId, limits }: { studyId: number; limits: readonly ToleranceLimit[] }) {
  const { t } = useTranslation('monitoring');
  return (
    <Modal name={LIMITS_MODAL} title={t('limits.edit')} description={t('limits.intro')} width="lg">
      <LimitsForm studyId={studyId} limits={limits} />
    </Modal>
  );
}

function LimitsForm({ studyId, limits }: { studyId: number; limits: readonly ToleranceLimit[] }) {
  const { t } = useTranslation('monitoring');
  const { t: ui } = useTranslation('ui');
  const id = useId();
  const modals = useModalStack();
  const toast = useToast();
  const save = useSaveToleranceLimits(studyId);
  const known = new Map(limits.map((limit) => [limit.key, limit]));
  const [drafts, setDrafts] = useState<LimitDraft[]>(() =>
    kriKeys.flatMap((key) => {
      const limit = known.get(key);
      return limit ? [draftOf(limit)] : [];
    }),
  );
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [reasonProblem, setReasonProblem] = useState<string | null>(null);

  const change = (key: KriKey, patch: Partial<LimitDraft>) =>
    setDrafts((current) => current.map((draft) => (draft.key === key ? { ...draft, ...patch } : draft)));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed: ToleranceLimit[] = [];
    for (const draft of drafts) {
      const warning = numberOf(draft.warning);
      const limit = numberOf(draft.limit);
      const minimumDenominator = numberOf(draft.minimumDenominator, true);
      if (warning === null || limit === null || minimumDenominator === null) {
        setProblem(t('limits.invalid'));
        return;
      }
      const inOrder = draft.direction === 'high' ? limit >= warning : limit <= warning;
      if (!inOrder) {
        setProblem(t('limits.order', { indicator: t(`kri.${draft.key}.name`) }));
        return;
      }
      parsed.push({ key: draft.key, warning, limit, direction: draft.direction, minimumDenominator });
    }
    setProblem(null);
    if (!reason.trim()) {
      setReasonProblem(ui('reason.required'));
      return;
    }
    setReasonProblem(null);
    try {
      await save.mutateAsync({ limits: parsed, reason: reason.trim() });
      toast(t('limits.saved'), 'success');
      modals.close(LIMITS_MODAL);
    } catch (failure) {
      setProblem(errorText(failure));
    }
  }

  return (
    <form className={styles.dialogForm} noValidate onSubmit={(event) => void submit(event)}>
      <div className={styles.limitsFrame}>
        <table className={styles.limitsTable}>
          <caption className={styles.visuallyHidden}>{t('limits.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('limits.indicator')}</th>
              <th scope="col">{t('limits.warning')}</th>
              <th scope="col">{t('limits.limit')}</th>
              <th scope="col">{t('limits.direction')}</th>
              <th scope="col">{t('limits.minimum')}</th>
            </tr>
          </thead>
          <tbody>
            {drafts.map((draft) => {
              const name = t(`kri.${draft.key}.name`);
              return (
                <tr key={draft.key} data-indicator={draft.key}>
                  <th scope="row">
                    {name}
                    <span className={styles.unit}>{t(`kri.${draft.key}.unit`)}</span>
                  </th>
                  <td>
                    <input
                      className={styles.numberInput}
                      inputMode="decimal"
                      aria-label={`${name} · ${t('limits.warning')}`}
                      value={draft.warning}
                      onChange={(e) => change(draft.key, { warning: e.target.value })}
                    />
                  </td>
                  <td>
                    <input
                      className={styles.numberInput}
                      inputMode="decimal"
                      aria-label={`${name} · ${t('limits.limit')}`}
                      value={draft.limit}
                      onChange={(e) => change(draft.key, { limit: e.target.value })}
                    />
                  </td>
                  <td>
                    <select
                      className={styles.smallSelect}
                      aria-label={`${name} · ${t('limits.direction')}`}
                      value={draft.direction}
                      onChange={(e) => change(draft.key, { direction: e.target.value as 'high' | 'low' })}
                    >
                      <option value="high">{t('limits.high')}</option>
                      <option value="low">{t('limits.low')}</option>
                    </select>
                  </td>
                  <td>
                    <input
                      className={styles.numberInput}
                      inputMode="numeric"
                      aria-label={`${name} · ${t('limits.minimum')}`}
                      value={draft.minimumDenominator}
                      onChange={(e) => change(draft.key, { minimumDenominator: e.target.value })}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <FormAlert message={problem} className={styles.problem} />
      <CountedTextArea
        id={`${id}-reason`}
        label={t('limits.reason')}
        value={reason}
        onChange={setReason}
        maxLength={REASON_MAX}
        counter={ui('reason.counter', { count: reason.length, max: REASON_MAX })}
        problem={reasonProblem}
        required
        rows={2}
      />
      <div className={styles.dialogActions}>
        <Button variant="secondary" onClick={() => modals.close(LIMITS_MODAL)}>
          {ui('cancel')}
        </Button>
        <Button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
          {t('limits.save')}
        </Button>
      </div>
    </form>
  );
}
