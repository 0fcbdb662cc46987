import type { FormDefinition, SectionDefinition, StudyDefinition } from '@cdms/study';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/text-field.tsx';
import { labelIn } from '../lib/designer-state.ts';
import { keysOfForm } from '../lib/form-edits.ts';
import styles from './designer.module.css';
import { keyProblem } from './element-fields.tsx';
import { ExpressionField } from './expression-field.tsx';
import { LabelAndHelpFields } from './label-help-fields.tsx';
import { Markers } from './markers.tsx';

/**
 * The selected section's properties: its labels and help in both languages, whether it is a repeating
 * group (the rows' key, at least one row required, the most rows), when it is shown, and the checkbox
 * of the form that marks it "not done". Each change is applied at once; a run of keystrokes in one
 * field is one step to undo.
 */
export function SectionProperties({
  definition,
  form,
  section,
  readOnly,
  onChange,
}: {
  definition: StudyDefinition;
  form: FormDefinition;
  section: SectionDefinition;
  readOnly: boolean;
  onChange: (section: SectionDefinition, coalesce?: string) => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const id = useId();
  const place = `${form.key}/${section.key}`;
  // The rows' key as typed: applied once it is a key no other element of the form has.
  const [rowsKey, setRowsKey] = useState(section.repeating?.key ?? '');
  const otherKeys = keysOfForm(form).filter((key) => key !== section.repeating?.key);
  const rowsKeyProblem =
    section.repeating === undefined && rowsKey === '' ? undefined : keyProblem(rowsKey, otherKeys, t);
  const checkboxes = form.sections
    .flatMap((candidate) => candidate.items)
    .filter((item) => item.type === 'checkbox');

  const set = <K extends keyof SectionDefinition>(
    field: K,
    value: SectionDefinition[K] | undefined,
    coalesce?: string,
  ) => {
    const next = { ...section };
    if (value === undefined) delete next[field];
    else next[field] = value;
    onChange(next, coalesce);
  };

  function setRepeating(on: boolean) {
    if (!on) {
      set('repeating', undefined);
      return;
    }
    let key = rowsKey || `${section.key}Rows`;
    for (let number = 2; otherKeys.includes(key); number += 1) key = `${section.key}Rows${number}`;
    setRowsKey(key);
    set('repeating', { key });
  }

  return (
    <section className={styles.properties} aria-label={t('section.propertiesOf', { key: section.key })}>
      <div className={styles.propertiesHeader}>
        <h3 className={styles.panelTitle}>
          {labelIn(section.label, i18n.language) || section.key}
          <span className={styles.headerMeta}> {t('grid.key', { key: section.key })}</span>
        </h3>
        <Markers label={section.label} />
      </div>
      <LabelAndHelpFields
        label={section.label}
        help={section.help}
        readOnly={readOnly}
        onLabel={(label, language) => set('label', label, `${place}.label.${language}`)}
        onHelp={(help, language) => set('help', help, `${place}.help.${language}`)}
      />
      <fieldset className={styles.propertyGroup} disabled={readOnly}>
        <legend>{t('section.rows')}</legend>
        <label className={styles.flag}>
          <input
            type="checkbox"
            checked={section.repeating !== undefined}
            onChange={(event) => setRepeating(event.target.checked)}
          />
          <span>{t('section.repeating')}</span>
        </label>
        {section.repeating ? (
          <div className={styles.numberFields}>
            <TextField
              label={t('section.rowsKey')}
              value={rowsKey}
              spellCheck={false}
              autoComplete="off"
              error={rowsKeyProblem}
              onChange={(event) => {
                const key = event.target.value.trim();
                setRowsKey(key);
                if (section.repeating && keyProblem(key, otherKeys, t) === undefined)
                  set('repeating', { ...section.repeating, key }, `${place}.rowsKey`);
              }}
            />
            <TextField
              label={t('section.maxRows')}
              inputMode="numeric"
              value={section.repeating.maxRows === undefined ? '' : String(section.repeating.maxRows)}
              onChange={(event) => {
                const text = event.target.value.trim();
                if (!section.repeating || (text !== '' && !/^[1-9]\d*$/.test(text))) return;
                const { maxRows: _previous, ...rest } = section.repeating;
                set('repeating', text === '' ? rest : { ...rest, maxRows: Number(text) }, `${place}.maxRows`);
              }}
            />
            <label className={styles.flag}>
              <input
                type="checkbox"
                checked={section.repeating.rowsRequired === true}
                onChange={(event) => {
                  if (!section.repeating) return;
                  const { rowsRequired: _previous, ...rest } = section.repeating;
                  set('repeating', event.target.checked ? { ...rest, rowsRequired: true } : rest);
                }}
              />
              <span>{t('section.rowsRequired')}</span>
            </label>
          </div>
        ) : null}
      </fieldset>
      <fieldset className={styles.propertyGroup} disabled={readOnly}>
        <legend>{t('form.rules')}</legend>
        <ExpressionField
          label={t('form.showWhen')}
          value={section.showWhen}
          context={{ definition, formKey: form.key }}
          readOnly={readOnly}
          onChange={(expression) => set('showWhen', expression)}
        />
        <label className={styles.selectField} htmlFor={`${id}-notDone`}>
          <span className={styles.propertyLabel}>{t('section.notDoneItem')}</span>
          <select
            id={`${id}-notDone`}
            value={section.notDoneItem ?? ''}
            onChange={(event) => set('notDoneItem', event.target.value || undefined)}
          >
            <option value="">{t('section.noNotDone')}</option>
            {checkboxes.map((item) => (
              <option key={item.key} value={item.key}>
                {labelIn(item.label, i18n.language)} ({item.key})
              </option>
            ))}
          </select>
        </label>
      </fieldset>
    </section>
  );
}
