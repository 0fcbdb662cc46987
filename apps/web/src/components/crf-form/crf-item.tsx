import {
  type CheckResult,
  choiceDisplay,
  getItemCodes,
  type ItemDefinition,
  type JsonValue,
  type Language,
  parsePhotoReference,
  parseTracing,
  type StudyDefinition,
  tracingAreaPercent,
  tracingDiameterPercent,
} from '@cdms/study';
import { memo, useCallback, useId } from 'react';
import { i18n } from '../../i18n/i18n.ts';
import styles from './crf-form.module.css';
import {
  type ItemNote,
  useCrfForm,
  useCrfText,
  useItemValue,
  useItemView,
  useRefusal,
  useSetItemValue,
} from './crf-form-context.tsx';
import { itemPath } from './evaluation-store.ts';
import type { Refusal } from './input-refusals.ts';
import { ItemControl } from './item-controls.tsx';
import { renderProbe } from './render-probe.ts';

interface CrfItemProps {
  item: ItemDefinition;
  groupKey?: string | undefined;
  rowIndex?: number | undefined;
}

/**
 * One item as a row of the form: the label column (label, required mark, help) and the input column
 * (input, unit, check messages). Memoised and subscribed to its own value and rule state, so typing in
 * another item does not render this one.
 */
export const CrfItem = memo(function CrfItem({ item, groupKey, rowIndex }: CrfItemProps) {
  const address = { itemKey: item.key, groupKey, rowIndex };
  const path = itemPath(address);
  renderProbe.onItemRender?.(path);
  const t = useCrfText();
  const { definition, language, readOnly, itemNotes, itemActions, refusals, itemControl } = useCrfForm();
  const value = useItemValue(address);
  const setValue = useSetItemValue(address);
  const view = useItemView(address);
  const refusal = useRefusal(path);
  const onRefuse = useCallback((next: Refusal | null) => refusals.report(path, next), [refusals, path]);
  const id = useId();
  if (view && !view.state.visible) return null;

  const labelId = `${id}-label`;
  const helpId = `${id}-help`;
  const messagesId = `${id}-messages`;
  const saved = itemNotes?.get(path) ?? [];
  // A check whose stored query is shown (with its state) is not told twice.
  const checks = (view?.checks ?? []).filter(
    (check) => !saved.some((note) => note.checkId === check.checkId),
  );
  // Text the input refused comes first: it is what stands between the user and a save.
  const notes: readonly ItemNote[] = refusal
    ? [{ id: 'refused', tone: 'hard', label: t('refused'), text: t(refusal.key, refusal.values) }, ...saved]
    : saved;
  const required = view?.state.required ?? false;
  const describedBy = [
    item.help ? helpId : undefined,
    checks.length > 0 || notes.length > 0 ? messagesId : undefined,
  ]
    .filter(Boolean)
    .join(' ');
  const isComputed = item.derive !== undefined;
  const isSystem = !isComputed && item.readOnly === true;
  const isNumber = item.type === 'integer' || item.type === 'decimal';
  // Group inputs (radios, check lists) are named through aria-labelledby; a <label for> needs one input.
  const groupLike = item.type === 'multipleChoice' || choiceDisplay(item) === 'radio';

  const label = (
    <>
      {item.label[language]}
      {required ? (
        <span className={styles.requiredMark} title={t('required')}>
          <span aria-hidden="true">*</span>
          <span className={styles.visuallyHidden}>({t('required')})</span>
        </span>
      ) : null}
    </>
  );

  return (
    <div className={styles.item} data-item={path} data-disabled={view?.state.disabled || undefined}>
      <div className={styles.labelCell}>
        {groupLike && !isComputed && !isSystem ? (
          <span id={labelId} className={styles.label}>
            {label}
          </span>
        ) : (
          <label id={labelId} htmlFor={id} className={styles.label}>
            {label}
          </label>
        )}
        {item.help ? (
          <p id={helpId} className={styles.help}>
            {item.help[language]}
          </p>
        ) : null}
        {itemActions && groupKey === undefined ? itemActions(item, labelId) : null}
      </div>
      <div className={styles.inputCell}>
        <div className={styles.inputLine}>
          {isComputed || isSystem ? (
            <>
              <input
                id={id}
                className={`${styles.input} ${styles.readOnlyInput} ${isNumber ? styles.readOnlyNumber : styles.readOnlyText}`}
                type="text"
                readOnly
                value={formatValue(definition, item, isComputed ? (view?.derived ?? null) : value, language)}
                placeholder={t('noValue')}
                aria-describedby={describedBy || undefined}
              />
              {item.unit ? <span className={styles.unit}>{item.unit}</span> : null}
              <span className={styles.badge}>{isComputed ? t('derived') : t('systemFilled')}</span>
            </>
          ) : (
            <>
              {(() => {
                const controlProps = {
                  item,
                  id,
                  labelId,
                  describedBy: describedBy || undefined,
                  value,
                  disabled: readOnly || (view?.state.disabled ?? false),
                  required,
                  language,
                  onChange: setValue,
                  onRefuse,
                };
                return itemControl?.(controlProps) ?? <ItemControl {...controlProps} />;
              })()}
              {item.unit ? <span className={styles.unit}>{item.unit}</span> : null}
            </>
          )}
        </div>
        {checks.length > 0 || notes.length > 0 ? (
          <CheckMessages id={messagesId} checks={checks} notes={notes} language={language} />
        ) : null}
      </div>
    </div>
  );
});

function CheckMessages({
  id,
  checks,
  notes,
  language,
}: {
  id: string;
  checks: CheckResult[];
  notes: readonly ItemNote[];
  language: Language;
}) {
  const t = useCrfText();
  return (
    <ul id={id} className={styles.messages}>
      {checks.map((check) => (
        <li
          key={check.checkId}
          className={`${styles.message} ${styles[check.severity]}`}
          data-severity={check.severity}
        >
          <span className={styles.severity}>{t(`severity.${check.severity}`)}</span>
          <span>{check.message[language]}</span>
        </li>
      ))}
      {notes.map((note) => (
        <li
          key={note.id}
          className={`${styles.message} ${styles[note.tone]}`}
          data-severity={note.tone}
          data-note={note.id}
          role={note.tone === 'hard' ? 'alert' : undefined}
        >
          <span className={styles.severity}>{note.label}</span>
          <span>{note.text}</span>
        </li>
      ))}
    </ul>
  );
}

/** A read-only value as text: numbers with the item's decimals, codes by their label. */
export function formatValue(
  definition: StudyDefinition,
  item: ItemDefinition,
  value: JsonValue,
  language: Language,
): string {
  if (value === null || value === undefined) return '';
  if (item.type === 'photo') {
    // `<id>:<sha256>`: the photo's number and the start of its content hash.
    const photo = parsePhotoReference(value);
    return photo ? `#${photo.photoId} (SHA-256 ${photo.sha256.slice(0, 12)}…)` : String(value);
  }
  if (item.type === 'tracing') {
    const tracing = parseTracing(value);
    if (!tracing) return String(value);
    const percent = (n: number | null) => (n === null ? '—' : `${n.toFixed(1)}%`);
    // The common namespace is in the first bundle, so the words are there wherever a value is shown.
    return i18n.getFixedT(language, 'common')('tracingSummary', {
      area: percent(tracingAreaPercent(tracing)),
      diameter: percent(tracingDiameterPercent(tracing)),
    });
  }
  if (typeof value === 'number') {
    return item.decimals !== undefined && item.type === 'decimal'
      ? value.toFixed(item.decimals)
      : String(value);
  }
  if (typeof value === 'boolean') return value ? '✓' : '';
  const codes = getItemCodes(definition, item);
  const labelOf = (code: JsonValue) => codes.find((c) => c.code === code)?.label[language] ?? String(code);
  if (Array.isArray(value)) return value.map(labelOf).join(', ');
  return codes.length > 0 ? labelOf(value) : String(value);
}
