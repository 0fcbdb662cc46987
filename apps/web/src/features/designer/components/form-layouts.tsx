import type { FormDefinition, StudyDefinition } from '@cdms/study';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { labelIn } from '../lib/designer-state.ts';
import { addVariant, removeVariant, setVariantVisits } from '../lib/form-edits.ts';
import { toggleInOrder } from '../lib/list-edits.ts';
import styles from './designer.module.css';

/**
 * The form's layouts: the default one, and a visit variant for visits that show the form otherwise
 * (more items at screening, fewer at follow-up). The chosen layout is the one the outline below edits;
 * a variant lists its visits (at least one) and starts as a copy of the default sections.
 */
export function FormLayouts({
  definition,
  form,
  layout,
  readOnly,
  onChoose,
  onChange,
}: {
  definition: StudyDefinition;
  form: FormDefinition;
  layout: number | null;
  readOnly: boolean;
  onChoose: (layout: number | null) => void;
  onChange: (form: FormDefinition) => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const id = useId();
  const variants = form.variants ?? [];
  const holding = definition.visits.filter((visit) => visit.forms.includes(form.key));
  const visitName = (key: string) => {
    const visit = definition.visits.find((candidate) => candidate.key === key);
    return visit ? labelIn(visit.label, i18n.language) : key;
  };
  const variant = layout === null ? undefined : variants[layout];
  // A visit in no variant yet is where a new one starts.
  const free = holding.filter((visit) => !variants.some((other) => other.visits.includes(visit.key)));

  return (
    <section className={styles.layouts} aria-labelledby={`${id}-label`}>
      <div className={styles.selectField}>
        <label id={`${id}-label`} htmlFor={`${id}-layout`}>
          {t('layouts.label')}
        </label>
        <select
          id={`${id}-layout`}
          value={layout === null ? '' : String(layout)}
          onChange={(event) => onChoose(event.target.value === '' ? null : Number(event.target.value))}
        >
          <option value="">{t('layouts.default')}</option>
          {variants.map((entry, index) => (
            <option key={entry.visits.join('|') || index} value={index}>
              {t('layouts.variant', { visits: entry.visits.map(visitName).join(', ') })}
            </option>
          ))}
        </select>
      </div>
      {readOnly ? null : (
        <Button
          variant="secondary"
          size="sm"
          disabled={free.length === 0}
          title={free.length === 0 ? t('layouts.noFreeVisit') : undefined}
          onClick={() => {
            const first = free[0];
            if (!first) return;
            onChange(addVariant(form, [first.key]));
            onChoose(variants.length);
          }}
        >
          {t('layouts.add')}
        </Button>
      )}
      {variant && layout !== null ? (
        <>
          <fieldset className={styles.checkList} disabled={readOnly}>
            <legend className={styles.propertyLabel}>{t('layouts.visits')}</legend>
            {holding.map((visit) => (
              <label key={visit.key} className={styles.flag}>
                <input
                  type="checkbox"
                  checked={variant.visits.includes(visit.key)}
                  disabled={variant.visits.length === 1 && variant.visits.includes(visit.key)}
                  onChange={() =>
                    onChange(
                      setVariantVisits(
                        form,
                        layout,
                        toggleInOrder(
                          variant.visits,
                          visit.key,
                          holding.map((candidate) => candidate.key),
                        ),
                      ),
                    )
                  }
                />
                {labelIn(visit.label, i18n.language)}
              </label>
            ))}
          </fieldset>
          {readOnly ? null : (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                onChoose(null);
                onChange(removeVariant(form, layout));
              }}
            >
              {t('layouts.remove')}
            </Button>
          )}
        </>
      ) : null}
    </section>
  );
}
