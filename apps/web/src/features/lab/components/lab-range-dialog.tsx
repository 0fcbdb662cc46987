import type { LabRange, LabRangeRequest, LabSex, SiteSummary } from '@cdms/contract';
import { isCalendarDate, todayInKorea } from '@cdms/contract';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { listStyles } from '../../../components/list-page.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useModalStack } from '../../../components/modal-stack-provider.tsx';
import { DateTextField, TextField } from '../../../components/text-field.tsx';
import { useToast } from '../../../components/toast.tsx';
import { useSaveLabRange } from '../api/lab.ts';
import type { LabTestChoice } from '../lib/lab-tests.ts';
import styles from './lab.module.css';

export const LAB_RANGE_MODAL = 'lab-range';

/** A number field's text as the API's limit: '' is no limit, anything else must be a number. */
function parseLimit(text: string): number | null | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : 'invalid';
}

const textOf = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

/**
 * Adding a normal range or changing one (DM, ADMIN): site, test, unit (the form's unit to start
 * with), low and/or high, an optional sex and age band, and the date it applies from. The server
 * checks again and its refusal is shown in the dialog, in the user's language.
 */
export function LabRangeDialog({
  studyId,
  sites,
  tests,
  editing,
  onSaved,
}: {
  studyId: number;
  /** After a save: the range as stored (the page shows its site). */
  onSaved: (range: LabRange) => void;
  sites: readonly SiteSummary[];
  tests: readonly LabTestChoice[];
  /** The range being changed, or null to add one. */
  editing: LabRange | null;
}) {
  const { t } = useTranslation('lab');
  const modals = useModalStack();
  const toast = useToast();
  const save = useSaveLabRange(studyId);
  const ids = { site: useId(), test: useId(), sex: useId() };
  const [siteId, setSiteId] = useState(String(editing?.siteId ?? sites[0]?.id ?? ''));
  const [testKey, setTestKey] = useState(editing?.testKey ?? tests[0]?.testKey ?? '');
  const [unit, setUnit] = useState(editing?.unit ?? tests[0]?.unit ?? '');
  const [low, setLow] = useState(textOf(editing?.low));
  const [high, setHigh] = useState(textOf(editing?.high));
  const [sex, setSex] = useState<LabSex | ''>(editing?.sex ?? '');
  const [ageMin, setAgeMin] = useState(textOf(editing?.ageMin));
  const [ageMax, setAgeMax] = useState(textOf(editing?.ageMax));
  const [effectiveFrom, setEffectiveFrom] = useState(editing?.effectiveFrom ?? todayInKorea());
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const limits = [parseLimit(low), parseLimit(high), parseLimit(ageMin), parseLimit(ageMax)];
    if (limits.includes('invalid') || !isCalendarDate(effectiveFrom) || !unit.trim()) {
      setError(t('dialog.invalid'));
      return;
    }
    const [lowValue, highValue, ageMinValue, ageMaxValue] = limits as (number | null)[];
    const request: LabRangeRequest = {
      siteId: Number(siteId),
      testKey,
      unit: unit.trim(),
      low: lowValue ?? null,
      high: highValue ?? null,
      sex: sex === '' ? null : sex,
      ageMin: ageMinValue ?? null,
      ageMax: ageMaxValue ?? null,
      effectiveFrom,
    };
    try {
      onSaved(await save.mutateAsync({ id: editing?.id ?? null, request }));
      toast(editing ? t('dialog.changed') : t('dialog.added'), 'success');
      modals.close(LAB_RANGE_MODAL);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    }
  }

  return (
    <Modal name={LAB_RANGE_MODAL} title={editing ? t('dialog.editTitle') : t('dialog.addTitle')}>
      <form className={styles.dialogBody} onSubmit={(event) => void submit(event)} noValidate>
        <div className={styles.dialogRow}>
          <div className={listStyles.field}>
            <label className={listStyles.label} htmlFor={ids.site}>
              {t('columns.site')}
            </label>
            <select
              id={ids.site}
              className={listStyles.select}
              value={siteId}
              onChange={(e) => setSiteId(e.target.value)}
            >
              {sites.map((site) => (
                <option key={site.id} value={site.id}>
                  {site.code} · {site.name}
                </option>
              ))}
            </select>
          </div>
          <div className={listStyles.field}>
            <label className={listStyles.label} htmlFor={ids.test}>
              {t('columns.test')}
            </label>
            <select
              id={ids.test}
              className={listStyles.select}
              value={testKey}
              onChange={(e) => {
                setTestKey(e.target.value);
                setUnit(tests.find((test) => test.testKey === e.target.value)?.unit ?? unit);
              }}
            >
              {tests.map((test) => (
                <option key={test.testKey} value={test.testKey}>
                  {test.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className={styles.dialogRow}>
          <TextField
            label={t('columns.unit')}
            value={unit}
            maxLength={30}
            onChange={(e) => setUnit(e.target.value)}
          />
          <TextField
            label={t('columns.low')}
            inputMode="decimal"
            value={low}
            onChange={(e) => setLow(e.target.value)}
          />
          <TextField
            label={t('columns.high')}
            inputMode="decimal"
            value={high}
            onChange={(e) => setHigh(e.target.value)}
          />
        </div>
        <div className={styles.dialogRow}>
          <div className={listStyles.field}>
            <label className={listStyles.label} htmlFor={ids.sex}>
              {t('columns.sex')}
            </label>
            <select
              id={ids.sex}
              className={listStyles.select}
              value={sex}
              onChange={(e) => setSex(e.target.value as LabSex | '')}
            >
              <option value="">{t('sex.any')}</option>
              <option value="M">{t('sex.M')}</option>
              <option value="F">{t('sex.F')}</option>
            </select>
          </div>
          <TextField
            label={t('dialog.ageMin')}
            inputMode="numeric"
            value={ageMin}
            onChange={(e) => setAgeMin(e.target.value)}
          />
          <TextField
            label={t('dialog.ageMax')}
            inputMode="numeric"
            value={ageMax}
            onChange={(e) => setAgeMax(e.target.value)}
          />
        </div>
        <DateTextField
          label={t('columns.effectiveFrom')}
          value={effectiveFrom}
          hint={t('dialog.effectiveFromHint')}
          onChange={(e) => setEffectiveFrom(e.target.value)}
        />
        <FormAlert message={error} className={styles.formError} />
        <div className={styles.dialogActions}>
          <Button variant="secondary" onClick={() => modals.close(LAB_RANGE_MODAL)}>
            {t('dialog.cancel')}
          </Button>
          <Button type="submit" disabled={save.isPending}>
            {t('dialog.save')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
