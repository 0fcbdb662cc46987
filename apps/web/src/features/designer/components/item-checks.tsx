import { type CheckDefinition, type FormDefinition, SEVERITIES, type StudyDefinition } from '@cdms/study';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { addCheck, newCheck, removeCheck, updateCheck } from '../lib/form-edits.ts';
import styles from './designer.module.css';
import { ExpressionField } from './expression-field.tsx';
import { Markers } from './markers.tsx';
import { VisitsFilterField } from './visits-filter-field.tsx';

/**
 * The edit checks that attach their message to the selected item: each with its severity (warning
 * while typing, query on save, or refusing the save), the condition under which it fails, written as an
 * expression, and its message in Korean and English. Added with a condition that never fails, to be
 * written; the live preview shows each firing.
 */
export function ItemChecks({
  definition,
  form,
  itemKey,
  readOnly,
  onChange,
}: {
  definition: StudyDefinition;
  form: FormDefinition;
  itemKey: string;
  readOnly: boolean;
  onChange: (form: FormDefinition, coalesce?: string) => void;
}) {
  const { t } = useTranslation('designer');
  const checks = (form.checks ?? [])
    .map((check, index) => ({ check, index }))
    .filter(({ check }) => check.item === itemKey);

  return (
    <section className={styles.properties} aria-label={t('checks.title', { key: itemKey })}>
      <div className={styles.propertiesHeader}>
        <h3 className={styles.panelTitle}>{t('checks.title', { key: itemKey })}</h3>
        {readOnly ? null : (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => onChange(addCheck(form, newCheck(form, itemKey)))}
          >
            {t('checks.add')}
          </Button>
        )}
      </div>
      {checks.length === 0 ? <p className={styles.hint}>{t('checks.none')}</p> : null}
      {checks.map(({ check, index }) => (
        <CheckFields
          key={check.id}
          definition={definition}
          form={form}
          check={check}
          readOnly={readOnly}
          onChange={(next, field) =>
            onChange(
              updateCheck(form, index, next),
              field ? `${form.key}/checks/${check.id}.${field}` : undefined,
            )
          }
          onRemove={() => onChange(removeCheck(form, index))}
        />
      ))}
    </section>
  );
}

function CheckFields({
  definition,
  form,
  check,
  readOnly,
  onChange,
  onRemove,
}: {
  definition: StudyDefinition;
  form: FormDefinition;
  check: CheckDefinition;
  readOnly: boolean;
  /** `field` names a typed field, whose keystrokes make one step of the history. */
  onChange: (check: CheckDefinition, field?: string) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('designer');
  const id = useId();
  return (
    <fieldset className={styles.propertyGroup} disabled={readOnly}>
      <legend>
        <code>{check.id}</code> <Markers label={check.message} />
      </legend>
      <div className={styles.addFormRow}>
        <label className={styles.selectField} htmlFor={`${id}-severity`}>
          <span className={styles.propertyLabel}>{t('checks.severity')}</span>
          <select
            id={`${id}-severity`}
            value={check.severity}
            onChange={(event) =>
              onChange({ ...check, severity: event.target.value as CheckDefinition['severity'] })
            }
          >
            {SEVERITIES.map((severity) => (
              <option key={severity} value={severity}>
                {t(`form.severities.${severity}`)}
              </option>
            ))}
          </select>
        </label>
        {readOnly ? null : (
          <Button variant="ghost" size="sm" onClick={onRemove}>
            {t('checks.remove', { id: check.id })}
          </Button>
        )}
      </div>
      <ExpressionField
        label={t('checks.when')}
        hint={t('checks.whenHint')}
        value={check.when}
        context={{ definition, formKey: form.key }}
        readOnly={readOnly}
        required
        onChange={(when) => {
          if (when !== undefined) onChange({ ...check, when }, 'when');
        }}
      />
      <VisitsFilterField
        definition={definition}
        form={form}
        visits={check.visits}
        onChange={(visits) => {
          const { visits: _previous, ...rest } = check;
          onChange(visits ? { ...rest, visits } : rest);
        }}
      />
      <div className={styles.labelFields}>
        <TextField
          label={t('checks.messageKo')}
          lang="ko"
          value={check.message.ko}
          onChange={(event) =>
            onChange({ ...check, message: { ...check.message, ko: event.target.value } }, 'ko')
          }
        />
        <TextField
          label={t('checks.messageEn')}
          lang="en"
          value={check.message.en}
          onChange={(event) =>
            onChange({ ...check, message: { ...check.message, en: event.target.value } }, 'en')
          }
        />
      </div>
    </fieldset>
  );
}
