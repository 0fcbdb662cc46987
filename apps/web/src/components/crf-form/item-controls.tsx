import {
  type Code,
  choiceDisplay,
  getItemCodes,
  type ItemDefinition,
  isValidDate,
  type JsonValue,
  type Language,
} from '@cdms/study';
import { type FocusEvent, useEffect, useRef, useState } from 'react';
import { formatDateText } from '../../lib/date-text.ts';
import { CalendarIcon } from '../calendar-icon.tsx';
import { CalendarPicker } from '../calendar-picker.tsx';
import styles from './crf-form.module.css';
import { useCrfForm, useCrfText } from './crf-form-context.tsx';
import { HOURS, minuteChoices } from './dates.ts';
import type { Refusal } from './input-refusals.ts';
import { cleanNumberText, numberToText, parseNumberText } from './number-text.ts';

// One input per item type. Each control gets the item's current value and reports a new JSON value;
// it never reads the store itself, so it can be reasoned about (and tested) alone.

/** Spec §5: the time picker moves in 5-minute steps by default. */
export const TIME_STEP_MINUTES = 5;

export interface ControlProps {
  item: ItemDefinition;
  id: string;
  labelId: string;
  describedBy: string | undefined;
  value: JsonValue;
  disabled: boolean;
  required: boolean;
  language: Language;
  onChange: (value: JsonValue) => void;
  /**
   * The control holds text that is not a value (a date after its maximum, an unfinished date or time):
   * the message, shown under the item while the text stays on screen, so the form is not saved without
   * it; null when the text is a value again.
   */
  onRefuse: (refusal: Refusal | null) => void;
}

/** Reports the control's refusal whenever it changes, and none once the control is gone. */
function useReportRefusal(onRefuse: (refusal: Refusal | null) => void, refusal: Refusal | null) {
  useEffect(() => onRefuse(refusal), [onRefuse, refusal]);
  useEffect(() => () => onRefuse(null), [onRefuse]);
}

// Refusals without values, made once (a control reports the same object while it stands).
const NUMBER_INCOMPLETE: Refusal = { key: 'number.incomplete' };
const DATE_INCOMPLETE: Refusal = { key: 'date.incomplete' };
const DATE_INVALID: Refusal = { key: 'date.invalid' };
const TIME_INCOMPLETE: Refusal = { key: 'time.incomplete' };

/** Whether focus left the control's box (and not for another of its parts, say the second select). */
function leftBox(event: FocusEvent<HTMLElement>): boolean {
  const box = event.currentTarget.parentElement;
  return !(event.relatedTarget instanceof Node && box?.contains(event.relatedTarget));
}

export function ItemControl(props: ControlProps) {
  switch (props.item.type) {
    case 'text':
      return <TextControl {...props} />;
    case 'textarea':
      return <TextareaControl {...props} />;
    case 'integer':
    case 'decimal':
      return <NumberControl {...props} />;
    case 'date':
      return <DateControl {...props} />;
    case 'time':
      return <TimeControl {...props} />;
    case 'singleChoice':
    case 'yesNo':
      return choiceDisplay(props.item) === 'radio' ? (
        <RadioControl {...props} />
      ) : (
        <SelectControl {...props} />
      );
    case 'multipleChoice':
      return <MultipleChoiceControl {...props} />;
    case 'checkbox':
      return <CheckboxControl {...props} />;
    case 'photo':
    case 'tracing':
      // Drawn by the page that knows the subject (`CrfFormContextValue.itemControl`); elsewhere (the
      // definition preview) there is no photo to show.
      return <NoPhotoControl {...props} />;
  }
}

function NoPhotoControl({ id }: ControlProps) {
  const t = useCrfText();
  return (
    <output id={id} className={styles.help}>
      {t('photoOnlyInSubject')}
    </output>
  );
}

function asText(value: JsonValue): string {
  return typeof value === 'string' ? value : value === null ? '' : String(value);
}

/** Empty text is stored as null, so "typed then erased" and "never typed" look the same to the rules. */
function textOrNull(text: string): string | null {
  return text === '' ? null : text;
}

function TextControl({ item, id, describedBy, value, disabled, required, onChange }: ControlProps) {
  return (
    <input
      id={id}
      className={`${styles.input} ${styles.textInput}`}
      type="text"
      value={asText(value)}
      maxLength={item.maxLength}
      disabled={disabled}
      aria-required={required}
      aria-describedby={describedBy}
      onChange={(event) => onChange(textOrNull(event.target.value))}
    />
  );
}

function TextareaControl({ item, id, describedBy, value, disabled, required, onChange }: ControlProps) {
  const t = useCrfText();
  const text = asText(value);
  const counterId = `${id}-counter`;
  return (
    <div className={styles.textareaBox}>
      <textarea
        id={id}
        className={`${styles.input} ${styles.textarea}`}
        value={text}
        rows={3}
        maxLength={item.maxLength}
        disabled={disabled}
        aria-required={required}
        aria-describedby={
          [describedBy, item.maxLength ? counterId : undefined].filter(Boolean).join(' ') || undefined
        }
        onChange={(event) => onChange(textOrNull(event.target.value))}
      />
      {item.maxLength !== undefined ? (
        <span id={counterId} className={styles.counter}>
          {t('counter', { count: text.length, max: item.maxLength })}
        </span>
      ) : null}
    </div>
  );
}

/**
 * A text input that keeps only what a number may contain. The text typed so far stays local (so "170." or
 * "-" survive while typing); the store gets the number it stands for. Text that stands for no number
 * ("-", ".") is refused: it stays on screen, and once the field is left its message shows.
 */
function NumberControl({
  item,
  id,
  describedBy,
  value,
  disabled,
  required,
  onChange,
  onRefuse,
}: ControlProps) {
  const [text, setText] = useState(() => numberToText(value));
  const [shownValue, setShownValue] = useState(value);
  const [left, setLeft] = useState(false);
  // Another source changed the value (sample data, clear): show it, unless the text already means it.
  if (value !== shownValue) {
    setShownValue(value);
    if (parseNumberText(text) !== value) setText(numberToText(value));
  }
  const refusal = left && text !== '' && parseNumberText(text) === null ? NUMBER_INCOMPLETE : null;
  useReportRefusal(onRefuse, refusal);
  return (
    <input
      id={id}
      className={`${styles.input} ${styles.numberInput}`}
      type="text"
      inputMode={item.type === 'integer' ? 'numeric' : 'decimal'}
      autoComplete="off"
      value={text}
      disabled={disabled}
      aria-required={required}
      aria-invalid={refusal ? true : undefined}
      aria-describedby={describedBy}
      onChange={(event) => {
        const cleaned = cleanNumberText(item, event.target.value);
        const next = parseNumberText(cleaned);
        setText(cleaned);
        setShownValue(next);
        setLeft(false);
        onChange(next);
      }}
      onBlur={() => setLeft(true)}
    />
  );
}

/**
 * A date typed as YYYY-MM-DD (spec §5; the browser's own date field would show the user's locale format)
 * with a calendar button. The value changes only when a whole, real date is accepted. A date before min or
 * after max (by day; `notFuture` means max = today), an impossible date or an unfinished one is refused:
 * the typed text stays, with its message (an unfinished one once the field is left), and the form is not
 * saved while it is there. Nothing happens while read-only or disabled.
 */
function DateControl({ item, id, describedBy, value, disabled, required, onChange, onRefuse }: ControlProps) {
  const t = useCrfText();
  const { today } = useCrfForm();
  const pickerRef = useRef<HTMLInputElement>(null);
  const accepted = asText(value);
  const [text, setText] = useState(accepted);
  const [shownValue, setShownValue] = useState(value);
  const [problem, setProblem] = useState<Refusal | null>(null);
  if (value !== shownValue) {
    setShownValue(value);
    setText(accepted);
    setProblem(null);
  }
  const { min, max } = dateLimits(item, today);
  useReportRefusal(onRefuse, problem);

  /** Accepts a complete date, or refuses it and keeps it on screen with the reason. */
  const offer = (date: string) => {
    const refusal: Refusal | null = !isValidDate(date)
      ? DATE_INVALID
      : max !== undefined && date > max
        ? { key: 'date.afterMax', values: { max } }
        : min !== undefined && date < min
          ? { key: 'date.beforeMin', values: { min } }
          : null;
    setText(date);
    setProblem(refusal);
    if (refusal) return;
    setShownValue(date);
    onChange(date);
  };

  return (
    <div className={styles.dateBox}>
      <span className={styles.dateField}>
        <input
          id={id}
          className={`${styles.input} ${styles.dateInput}`}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder="YYYY-MM-DD"
          maxLength={10}
          value={text}
          disabled={disabled}
          required={required}
          aria-invalid={problem ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            const next = formatDateText(event.target.value);
            if (next === '') {
              setText('');
              setProblem(null);
              setShownValue(null);
              onChange(null);
            } else if (next.length === 10) {
              offer(next);
            } else {
              setText(next);
              setProblem(null);
            }
          }}
          // An unfinished date is not a value: leaving the field says so (the text stays to be finished).
          onBlur={() => {
            if (text !== '' && text.length < 10) setProblem(DATE_INCOMPLETE);
          }}
        />
        <button
          type="button"
          className={styles.calendarButton}
          disabled={disabled}
          aria-label={t('date.openCalendar')}
          onClick={() => pickerRef.current?.showPicker?.()}
        >
          <CalendarIcon />
        </button>
      </span>
      {/* The browser's calendar, opened by the button; it already greys out days outside min and max. */}
      <CalendarPicker
        ref={pickerRef}
        className={styles.datePicker}
        value={accepted}
        min={min}
        max={max}
        disabled={disabled}
        onPick={offer}
      />
    </div>
  );
}

/**
 * The days a date item accepts. The model has no date bounds of its own yet; its rule today is `notFuture`
 * (max = today). A new bound (say, not before the consent date) belongs here.
 */
export function dateLimits(item: ItemDefinition, today: string): { min?: string; max?: string } {
  return item.notFuture === true ? { max: today } : {};
}

/**
 * A 24-hour time as two selects (hour, minute in 5-minute steps); stored "HH:mm" once both are chosen.
 * One of the two alone is refused (its message once focus leaves the pair), so half a time is never
 * saved as none.
 */
function TimeControl({
  id,
  labelId,
  describedBy,
  value,
  disabled,
  required,
  onChange,
  onRefuse,
}: ControlProps) {
  const t = useCrfText();
  const [left, setLeft] = useState(false);
  const stored = typeof value === 'string' && /^\d{2}:\d{2}$/.test(value) ? value.split(':') : ['', ''];
  const [draft, setDraft] = useState({ hour: stored[0] ?? '', minute: stored[1] ?? '' });
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    setDraft({ hour: stored[0] ?? '', minute: stored[1] ?? '' });
  }
  const minutes = minuteChoices(TIME_STEP_MINUTES);
  // A stored minute off the step (imported data) stays choosable rather than silently changing.
  if (draft.minute !== '' && !minutes.includes(draft.minute)) minutes.push(draft.minute);
  const update = (part: 'hour' | 'minute', text: string) => {
    const next = { ...draft, [part]: text };
    setDraft(next);
    const time = next.hour !== '' && next.minute !== '' ? `${next.hour}:${next.minute}` : null;
    setShownValue(time);
    onChange(time);
  };
  const refusal = left && (draft.hour === '') !== (draft.minute === '') ? TIME_INCOMPLETE : null;
  useReportRefusal(onRefuse, refusal);
  return (
    <div className={styles.timeBox}>
      <TimePartSelect
        id={id}
        unitId={`${id}-hour`}
        unit={t('time.hour')}
        labelId={labelId}
        describedBy={describedBy}
        invalid={refusal !== null}
        value={draft.hour}
        choices={HOURS}
        disabled={disabled}
        required={required}
        onChange={(text) => update('hour', text)}
        onLeft={setLeft}
      />
      <TimePartSelect
        unitId={`${id}-minute`}
        unit={t('time.minute')}
        labelId={labelId}
        value={draft.minute}
        choices={minutes}
        disabled={disabled}
        required={required}
        onChange={(text) => update('minute', text)}
        onLeft={setLeft}
      />
    </div>
  );
}

/**
 * The hour or the minute of the time picker: a select named by the item's label and its unit after it.
 * The hour's select is the item's own input (its id, its messages, its refusal); the minute's is not.
 */
function TimePartSelect({
  id,
  unitId,
  unit,
  labelId,
  describedBy,
  invalid = false,
  value,
  choices,
  disabled,
  required,
  onChange,
  onLeft,
}: {
  id?: string;
  unitId: string;
  unit: string;
  labelId: string;
  describedBy?: string | undefined;
  invalid?: boolean;
  value: string;
  choices: readonly string[];
  disabled: boolean;
  required: boolean;
  onChange: (text: string) => void;
  /** Whether focus left the pair (focus moving to the other select does not count). */
  onLeft: (left: boolean) => void;
}) {
  return (
    <>
      <select
        id={id}
        className={`${styles.input} ${styles.timeSelect}`}
        value={value}
        disabled={disabled}
        aria-required={required}
        aria-labelledby={`${labelId} ${unitId}`}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        onFocus={() => onLeft(false)}
        onBlur={(event) => onLeft(leftBox(event))}
      >
        <option value="">--</option>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
      <span id={unitId} className={styles.timeUnit}>
        {unit}
      </span>
    </>
  );
}

function useCodes(item: ItemDefinition) {
  const { definition } = useCrfForm();
  return getItemCodes(definition, item);
}

function RadioControl({
  item,
  id,
  labelId,
  describedBy,
  value,
  disabled,
  required,
  language,
  onChange,
}: ControlProps) {
  return (
    <div
      id={id}
      role="radiogroup"
      className={styles.choices}
      aria-labelledby={labelId}
      aria-describedby={describedBy}
      aria-required={required}
      aria-disabled={disabled || undefined}
    >
      <ChoiceBoxes
        type="radio"
        name={id}
        codes={useCodes(item)}
        language={language}
        disabled={disabled}
        isChecked={(code) => value === code}
        onToggle={(code) => onChange(code)}
      />
    </div>
  );
}

function SelectControl({
  item,
  id,
  describedBy,
  value,
  disabled,
  required,
  language,
  onChange,
}: ControlProps) {
  const t = useCrfText();
  const codes = useCodes(item);
  return (
    <select
      id={id}
      className={`${styles.input} ${styles.select}`}
      value={asText(value)}
      disabled={disabled}
      aria-required={required}
      aria-describedby={describedBy}
      onChange={(event) => onChange(textOrNull(event.target.value))}
    >
      <option value="">{t('select.placeholder')}</option>
      {codes.map((code) => (
        <option key={code.code} value={code.code}>
          {code.label[language]}
        </option>
      ))}
    </select>
  );
}

function MultipleChoiceControl({
  item,
  id,
  labelId,
  describedBy,
  value,
  disabled,
  language,
  onChange,
}: ControlProps) {
  const codes = useCodes(item);
  const selected = Array.isArray(value) ? value : [];
  const toggle = (code: string, on: boolean) => {
    // Kept in code-list order, so the same answers always store the same list.
    const next = codes.map((c) => c.code).filter((c) => (c === code ? on : selected.includes(c)));
    onChange(next.length > 0 ? next : null);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: a fieldset would need its own legend; the label column names the group.
    <div
      id={id}
      role="group"
      className={styles.choices}
      aria-labelledby={labelId}
      aria-describedby={describedBy}
    >
      <ChoiceBoxes
        type="checkbox"
        codes={codes}
        language={language}
        disabled={disabled}
        isChecked={(code) => selected.includes(code)}
        onToggle={toggle}
      />
    </div>
  );
}

/** The codes of a single choice (radios) or a multiple choice (checkboxes): each box clickable with its label. */
function ChoiceBoxes({
  type,
  name,
  codes,
  language,
  disabled,
  isChecked,
  onToggle,
}: {
  type: 'radio' | 'checkbox';
  /** The radios' group name (checkboxes need none). */
  name?: string;
  codes: readonly Code[];
  language: Language;
  disabled: boolean;
  isChecked: (code: string) => boolean;
  onToggle: (code: string, checked: boolean) => void;
}) {
  return codes.map((code) => (
    <label key={code.code} className={styles.choice}>
      <input
        type={type}
        name={name}
        value={code.code}
        checked={isChecked(code.code)}
        disabled={disabled}
        onChange={(event) => onToggle(code.code, event.target.checked)}
      />
      <span>{code.label[language]}</span>
    </label>
  ));
}

function CheckboxControl({ id, describedBy, value, disabled, onChange }: ControlProps) {
  return (
    <input
      id={id}
      className={styles.checkbox}
      type="checkbox"
      checked={value === true}
      disabled={disabled}
      aria-describedby={describedBy}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}
