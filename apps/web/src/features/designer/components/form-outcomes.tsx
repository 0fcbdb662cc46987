import {
  type FormDefinition,
  OUTCOME_KINDS,
  type OutcomeDefinition,
  type OutcomeKind,
  type StudyDefinition,
} from '@cdms/study';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { labelIn } from '../lib/designer-state.ts';
import { addOutcome, newOutcome, removeOutcome, updateOutcome } from '../lib/form-edits.ts';
import styles from './designer.module.css';
import { ExpressionField } from './expression-field.tsx';
import { Markers } from './markers.tsx';
import { VisitsFilterField } from './visits-filter-field.tsx';

/**
 * The form's routing outcomes: when a condition holds, data entry tells the site where to go next —
 * the end-of-study visit, the subject's exclusion, an adverse event form —, with a message in both
 * languages and optionally the form to open. Added with a condition that never holds, to be written;
 * the live preview's evaluation panel shows each as it fires.
 */
export function FormOutcomes({
  definition,
  form,
  readOnly,
  onChange,
}: {
  definition: StudyDefinition;
  form: FormDefinition;
  readOnly: boolean;
  onChange: (form: FormDefinition, coalesce?: string) => void;
}) {
  const { t } = useTranslation('designer');
  const outcomes = form.outcomes ?? [];
  return (
    <section className={styles.properties} aria-label={t('outcomes.title')}>
      <div className={styles.propertiesHeader}>
        <h3 className={styles.panelTitle}>{t('outcomes.title')}</h3>
        {readOnly ? null : (
          <Button variant="secondary" size="sm" onClick={() => onChange(addOutcome(form, newOutcome(form)))}>
            {t('outcomes.add')}
          </Button>
        )}
      </div>
      <p className={styles.hint}>{outcomes.length === 0 ? t('outcomes.none') : t('outcomes.intro')}</p>
      {outcomes.map((outcome, index) => (
        <OutcomeFields
          key={outcome.id}
          definition={definition}
          form={form}
          outcome={outcome}
          readOnly={readOnly}
          onChange={(next, field) =>
            onChange(
              updateOutcome(form, index, next),
              field ? `${form.key}/outcomes/${outcome.id}.${field}` : undefined,
            )
          }
          onRemove={() => onChange(removeOutcome(form, index))}
        />
      ))}
    </section>
  );
}

function OutcomeFields({
  definition,
  form,
  outcome,
  readOnly,
  onChange,
  onRemove,
}: {
  definition: StudyDefinition;
  form: FormDefinition;
  outcome: OutcomeDefinition;
  readOnly: boolean;
  onChange: (outcome: OutcomeDefinition, field?: string) => void;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const id = useId();
  const targets = definition.visits.flatMap((visit) =>
    visit.forms.map((formKey) => ({
      value: `${visit.key}|${formKey}`,
      text: `${labelIn(visit.label, i18n.language)} · ${labelIn(
        definition.forms.find((candidate) => candidate.key === formKey)?.label ?? {
          ko: formKey,
          en: formKey,
        },
        i18n.language,
      )}`,
    })),
  );
  const target = outcome.target ? `${outcome.target.visit}|${outcome.target.form}` : '';
  return (
    <fieldset className={styles.propertyGroup} disabled={readOnly}>
      <legend>
        <code>{outcome.id}</code> <Markers label={outcome.message} />
      </legend>
      <div className={styles.addFormRow}>
        <label className={styles.selectField} htmlFor={`${id}-kind`}>
          <span className={styles.propertyLabel}>{t('outcomes.kind')}</span>
          <select
            id={`${id}-kind`}
            value={outcome.kind}
            onChange={(event) => onChange({ ...outcome, kind: event.target.value as OutcomeKind })}
          >
            {OUTCOME_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`outcomes.kinds.${kind}`)}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.selectField} htmlFor={`${id}-target`}>
          <span className={styles.propertyLabel}>{t('outcomes.target')}</span>
          <select
            id={`${id}-target`}
            value={target}
            onChange={(event) => {
              const [visit, formKey] = event.target.value.split('|');
              const { target: _previous, ...rest } = outcome;
              onChange(visit && formKey ? { ...rest, target: { visit, form: formKey } } : rest);
            }}
          >
            <option value="">{t('outcomes.noTarget')}</option>
            {targets.map((option) => (
              <option key={option.value} value={option.value}>
                {option.text}
              </option>
            ))}
          </select>
        </label>
        {readOnly ? null : (
          <Button variant="ghost" size="sm" onClick={onRemove}>
            {t('checks.remove', { id: outcome.id })}
          </Button>
        )}
      </div>
      <ExpressionField
        label={t('outcomes.when')}
        value={outcome.when}
        context={{ definition, formKey: form.key }}
        readOnly={readOnly}
        required
        onChange={(when) => {
          if (when !== undefined) onChange({ ...outcome, when }, 'when');
        }}
      />
      <VisitsFilterField
        definition={definition}
        form={form}
        visits={outcome.visits}
        onChange={(visits) => {
          const { visits: _previous, ...rest } = outcome;
          onChange(visits ? { ...rest, visits } : rest);
        }}
      />
      <div className={styles.labelFields}>
        <TextField
          label={t('checks.messageKo')}
          lang="ko"
          value={outcome.message.ko}
          onChange={(event) =>
            onChange({ ...outcome, message: { ...outcome.message, ko: event.target.value } }, 'ko')
          }
        />
        <TextField
          label={t('checks.messageEn')}
          lang="en"
          value={outcome.message.en}
          onChange={(event) =>
            onChange({ ...outcome, message: { ...outcome.message, en: event.target.value } }, 'en')
          }
        />
      </div>
    </fieldset>
  );
}
