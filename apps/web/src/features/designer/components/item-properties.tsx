import {
  choiceDisplay,
  type Expression,
  type ItemDefinition,
  SEVERITIES,
  type StudyDefinition,
} from '@cdms/study';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { labelIn } from '../lib/designer-state.ts';
import { isNumberType, takesCodeList } from '../lib/form-edits.ts';
import styles from './designer.module.css';
import { ExpressionField } from './expression-field.tsx';
import { LabelAndHelpFields } from './label-help-fields.tsx';
import { Markers } from './markers.tsx';

/** Optional item fields the panel sets and clears (undefined removes the field from the item). */
type OptionalField = Exclude<keyof ItemDefinition, 'key' | 'type' | 'label'>;

/**
 * The selected item's properties: labels and help in both languages (an empty language marked as a
 * missing translation), what its type takes (unit, decimals, soft range with its severity and hard
 * limits for numbers; length for text; the code list and its display for choices; "not in the
 * future" for dates), required, required-when, show-when and derivation as expressions, and the
 * item's flags. Each change is applied at once (the live preview follows); a run of keystrokes in one
 * field is one step to undo (`coalesce`).
 */
export function ItemProperties({
  definition,
  formKey,
  item,
  placeName,
  readOnly,
  onChange,
  onMove,
  onRemove,
}: {
  definition: StudyDefinition;
  formKey: string;
  item: ItemDefinition;
  /** A name of the item's place for the history: `section/item`. */
  placeName: string;
  readOnly: boolean;
  onChange: (item: ItemDefinition, coalesce?: string) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const display = choiceDisplay(item);
  const context = { definition, formKey };
  const set = <K extends OptionalField>(field: K, value: ItemDefinition[K] | undefined, coalesce = true) => {
    const next = { ...item };
    if (value === undefined || value === false) delete next[field];
    else next[field] = value;
    onChange(next, coalesce ? `${placeName}.${field}` : undefined);
  };

  return (
    <section className={styles.properties} aria-label={t('form.propertiesOf', { key: item.key })}>
      <div className={styles.propertiesHeader}>
        <h3 className={styles.panelTitle}>
          {labelIn(item.label, i18n.language) || item.key}
          <span className={styles.headerMeta}>
            {' '}
            {t('grid.key', { key: item.key })} · {t(`form.types.${item.type}`)}
          </span>
        </h3>
        <Markers label={item.label} />
        {readOnly ? null : (
          <span className={styles.headerActions}>
            <Button variant="ghost" size="sm" onClick={() => onMove(-1)}>
              {t('form.moveItemUp')}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => onMove(1)}>
              {t('form.moveItemDown')}
            </Button>
            <Button variant="ghost" size="sm" onClick={onRemove}>
              {t('form.removeItem')}
            </Button>
          </span>
        )}
      </div>
      <LabelAndHelpFields
        label={item.label}
        help={item.help}
        readOnly={readOnly}
        onLabel={(label, language) => onChange({ ...item, label }, `${placeName}.label.${language}`)}
        onHelp={(help) => set('help', help)}
      />
      {isNumberType(item.type) ? (
        <fieldset className={styles.propertyGroup} disabled={readOnly}>
          <legend>{t('form.number')}</legend>
          <div className={styles.numberFields}>
            <TextField
              label={t('form.unit')}
              value={item.unit ?? ''}
              onChange={(event) => set('unit', event.target.value === '' ? undefined : event.target.value)}
            />
            {item.type === 'decimal' ? (
              <NumberProperty
                label={t('form.decimals')}
                value={item.decimals}
                onChange={(v) => set('decimals', v)}
              />
            ) : null}
            <NumberProperty label={t('form.min')} value={item.min} onChange={(v) => set('min', v)} />
            <NumberProperty label={t('form.max')} value={item.max} onChange={(v) => set('max', v)} />
            <NumberProperty
              label={t('form.hardMin')}
              value={item.hardMin}
              onChange={(v) => set('hardMin', v)}
            />
            <NumberProperty
              label={t('form.hardMax')}
              value={item.hardMax}
              onChange={(v) => set('hardMax', v)}
            />
            <label className={styles.selectField}>
              <span className={styles.propertyLabel}>{t('form.rangeSeverity')}</span>
              <select
                value={item.rangeSeverity ?? ''}
                onChange={(event) =>
                  set(
                    'rangeSeverity',
                    event.target.value === ''
                      ? undefined
                      : (event.target.value as ItemDefinition['rangeSeverity']),
                    false,
                  )
                }
              >
                <option value="">{t('form.severityDefault')}</option>
                {SEVERITIES.map((severity) => (
                  <option key={severity} value={severity}>
                    {t(`form.severities.${severity}`)}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </fieldset>
      ) : null}
      {item.type === 'text' || item.type === 'textarea' ? (
        <fieldset className={styles.propertyGroup} disabled={readOnly}>
          <legend>{t('form.textValue')}</legend>
          <NumberProperty
            label={t('form.maxLength')}
            value={item.maxLength}
            onChange={(v) => set('maxLength', v)}
          />
        </fieldset>
      ) : null}
      {takesCodeList(item.type) || display !== undefined ? (
        <fieldset className={styles.propertyGroup} disabled={readOnly}>
          <legend>{t('form.choices')}</legend>
          {takesCodeList(item.type) ? (
            <label className={styles.selectField}>
              <span className={styles.propertyLabel}>{t('form.codeList')}</span>
              <select
                value={item.codeList ?? ''}
                onChange={(event) => set('codeList', event.target.value || undefined, false)}
              >
                <option value="">{t('form.noCodeList')}</option>
                {definition.codeLists.map((list) => (
                  <option key={list.key} value={list.key}>
                    {list.key} ({list.codes.map((code) => labelIn(code.label, i18n.language)).join(', ')})
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {display !== undefined ? (
            <label className={styles.selectField}>
              <span className={styles.propertyLabel}>{t('form.display')}</span>
              <select
                value={display}
                onChange={(event) => set('display', event.target.value as 'radio' | 'select', false)}
              >
                <option value="radio">{t('form.displays.radio')}</option>
                <option value="select">{t('form.displays.select')}</option>
              </select>
            </label>
          ) : null}
        </fieldset>
      ) : null}
      <fieldset className={styles.propertyGroup} disabled={readOnly}>
        <legend>{t('form.rules')}</legend>
        <div className={styles.flags}>
          <Flag
            label={t('form.required')}
            checked={item.required === true}
            onChange={(on) => set('required', on || undefined, false)}
          />
          {item.type === 'date' ? (
            <Flag
              label={t('form.notFuture')}
              checked={item.notFuture === true}
              onChange={(on) => set('notFuture', on || undefined, false)}
            />
          ) : null}
          <Flag
            label={t('form.readOnly')}
            checked={item.readOnly === true}
            onChange={(on) => set('readOnly', on || undefined, false)}
          />
          <Flag
            label={t('form.critical')}
            checked={item.critical === true}
            onChange={(on) => set('critical', on ? true : undefined, false)}
          />
          <Flag
            label={t('form.personalData')}
            checked={item.personalData === true}
            onChange={(on) => set('personalData', on ? true : undefined, false)}
          />
        </div>
        <ExpressionField
          label={t('form.requiredWhen')}
          value={item.requiredWhen}
          context={context}
          readOnly={readOnly}
          onChange={(expression: Expression | undefined) => set('requiredWhen', expression)}
        />
        <ExpressionField
          label={t('form.showWhen')}
          value={item.showWhen}
          context={context}
          readOnly={readOnly}
          onChange={(expression) => set('showWhen', expression)}
        />
        <ExpressionField
          label={t('form.derive')}
          hint={t('form.deriveHint')}
          value={item.derive}
          context={context}
          readOnly={readOnly}
          onChange={(expression) => set('derive', expression)}
        />
      </fieldset>
    </section>
  );
}

function Flag({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className={styles.flag}>
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span>{label}</span>
    </label>
  );
}

/**
 * A number field: applied when the text is a number, removed when it is empty; other text stays in the
 * field, marked, until it is a number.
 */
function NumberProperty({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number | undefined;
  onChange: (value: number | undefined) => void;
}) {
  const { t } = useTranslation('designer');
  const [text, setText] = useState(value === undefined ? '' : String(value));
  // Undo or redo put another value in: the field shows it (its own changes read the same as the text).
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    if (Number(text) !== value && !(text.trim() === '' && value === undefined))
      setText(value === undefined ? '' : String(value));
  }
  const valid = text.trim() === '' || Number.isFinite(Number(text));
  return (
    <TextField
      label={label}
      inputMode="decimal"
      value={text}
      error={valid ? undefined : t('form.notANumber')}
      onChange={(event) => {
        const next = event.target.value;
        setText(next);
        if (next.trim() === '') onChange(undefined);
        else if (Number.isFinite(Number(next))) onChange(Number(next));
      }}
    />
  );
}
