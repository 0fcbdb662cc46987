import {
  checkExpressionText,
  type Expression,
  type ExpressionTextContext,
  expressionCompletions,
  formatExpression,
  parseExpression,
} from '@cdms/study';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { labelIn } from '../lib/designer-state.ts';
import styles from './designer.module.css';

/** At most this many completions are listed under the field. */
const MAX_COMPLETIONS = 8;

/**
 * An expression written in the text syntax (packages/study/src/expression-text): problems shown as it is
 * typed — parse errors and references to items, forms, visits or parameters that do not exist, each with
 * the column it is at — and completions of `visit.form.item` references, functions and parameters for
 * the word at the cursor. The expression is applied as soon as the text has no problem; an empty text
 * removes it. Text with a problem stays in the field and is not applied, which the field says.
 */
export function ExpressionField({
  label,
  hint,
  value,
  context,
  readOnly,
  required = false,
  onChange,
}: {
  label: string;
  hint?: string;
  value: Expression | undefined;
  /** An expression that must be there (a check's condition): an empty text is a problem, not a removal. */
  required?: boolean;
  context: ExpressionTextContext;
  readOnly: boolean;
  onChange: (expression: Expression | undefined) => void;
}) {
  const { t, i18n } = useTranslation('designer');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(() => (value ? formatExpression(value) : ''));
  const [cursor, setCursor] = useState<number | null>(null);
  const empty = text.trim() === '';
  const problems = empty ? [] : checkExpressionText(text, context);
  const missing = empty && required;

  // Undo or redo put a different expression in: the field shows it. (A value that comes back from
  // this field's own change reads the same as the text, which then stays as typed.)
  const [shownValue, setShownValue] = useState(value);
  if (value !== shownValue) {
    setShownValue(value);
    const typed = text.trim() === '' ? null : parseExpression(text).expression;
    if ((typed ? formatExpression(typed) : '') !== (value ? formatExpression(value) : ''))
      setText(value ? formatExpression(value) : '');
  }

  function change(next: string, at: number | null) {
    setText(next);
    setCursor(at);
    if (next.trim() === '') {
      if (!required) onChange(undefined);
      return;
    }
    const parsed = parseExpression(next);
    if (parsed.expression && checkExpressionText(next, context).length === 0) onChange(parsed.expression);
  }

  const completions = cursor === null || readOnly ? null : expressionCompletions(text, cursor, context);
  const options = completions?.options.slice(0, MAX_COMPLETIONS) ?? [];

  function complete(optionLabel: string) {
    if (!completions) return;
    const next = `${text.slice(0, completions.from)}${optionLabel}${text.slice(completions.to)}`;
    const at = completions.from + optionLabel.length;
    change(next, at);
    requestAnimationFrame(() => {
      input.current?.focus();
      input.current?.setSelectionRange(at, at);
    });
  }

  return (
    <div className={styles.expressionField}>
      <label htmlFor={id} className={styles.propertyLabel}>
        {label}
      </label>
      <input
        ref={input}
        id={id}
        className={styles.expressionInput}
        value={text}
        readOnly={readOnly}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={problems.length > 0 || missing || undefined}
        aria-describedby={`${id}-note`}
        onChange={(event) => change(event.target.value, event.target.selectionStart)}
        onSelect={(event) => setCursor(event.currentTarget.selectionStart)}
        onBlur={() => setTimeout(() => setCursor(null), 150)}
      />
      <div
        id={`${id}-note`}
        className={problems.length > 0 || missing ? styles.expressionProblems : styles.hint}
      >
        {missing ? (
          t('expression.required')
        ) : problems.length > 0 ? (
          <>
            <span>{t('expression.notApplied')}</span>
            <ul>
              {problems.map((problem) => (
                <li key={`${problem.start}-${problem.end}-${problem.message.en}`}>
                  {t('expression.at', { column: problem.start + 1 })}{' '}
                  {labelIn(problem.message, i18n.language)}
                </li>
              ))}
            </ul>
          </>
        ) : (
          (hint ?? t('expression.hint'))
        )}
      </div>
      {options.length > 0 ? (
        <fieldset className={styles.completions} aria-label={t('expression.completions')}>
          {options.map((option) => (
            <button
              key={`${option.kind}-${option.label}`}
              type="button"
              className={styles.completion}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => complete(option.label)}
            >
              <code>{option.label}</code>
              <span className={styles.completionKind}>{t(`expression.kinds.${option.kind}`)}</span>
              {option.detail ? <span>{labelIn(option.detail, i18n.language)}</span> : null}
            </button>
          ))}
        </fieldset>
      ) : null}
    </div>
  );
}
