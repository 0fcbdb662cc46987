import { keySchema, type LocalizedText } from '@cdms/study';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/text-field.tsx';
import styles from './designer.module.css';

/**
 * What the visit and form dialogs and the form editor's "add item" and "add section" all ask: a key (new
 * elements only) and the label in ko and en.
 */
export interface ElementFieldValues {
  key: string;
  label: LocalizedText;
}

export interface ElementFieldProblems {
  key?: string;
  label?: string;
}

/**
 * The problems of the fields before they are applied: a key the model takes and no other element
 * has, and a label in at least one language. An empty language is allowed here: the grid marks it
 * as a missing translation, and the server names it if it is saved that way.
 */
export function elementFieldProblems(
  values: ElementFieldValues,
  takenKeys: readonly string[] | null,
  t: (key: string) => string,
): ElementFieldProblems {
  const problems: ElementFieldProblems = {};
  const key = takenKeys === null ? undefined : keyProblem(values.key, takenKeys, t);
  if (key) problems.key = key;
  if (values.label.ko.trim() === '' && values.label.en.trim() === '')
    problems.label = t('dialog.labelRequired');
  return problems;
}

/** A new key's problem, if it has one: the model's key rule, and no other element of its kind has it. */
export function keyProblem(
  key: string,
  takenKeys: readonly string[],
  t: (key: string) => string,
): string | undefined {
  if (!keySchema.safeParse(key).success) return t('dialog.keyInvalid');
  if (takenKeys.includes(key)) return t('dialog.keyTaken');
  return undefined;
}

/** The key field (only while adding: a key cannot change once others may refer to it) and labels. */
export function ElementFields({
  values,
  onChange,
  problems,
  keyEditable,
  autoFocus = true,
}: {
  values: ElementFieldValues;
  onChange: (values: ElementFieldValues) => void;
  problems: ElementFieldProblems;
  keyEditable: boolean;
  /** In a dialog the first field takes the focus; in a form on the page (the form editor's) it does not. */
  autoFocus?: boolean;
}) {
  const { t } = useTranslation('designer');
  const setLabel = (language: keyof LocalizedText, text: string) =>
    onChange({ ...values, label: { ...values.label, [language]: text } });
  return (
    <>
      {keyEditable ? (
        <TextField
          label={t('dialog.key')}
          value={values.key}
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
          autoFocus={autoFocus}
          hint={t('dialog.keyHint')}
          error={problems.key}
          onChange={(event) => onChange({ ...values, key: event.target.value.trim() })}
        />
      ) : (
        <p className={styles.fixedKey}>
          {t('dialog.key')}: <code>{values.key}</code>
        </p>
      )}
      <div className={styles.labelFields}>
        <TextField
          label={t('dialog.labelKo')}
          lang="ko"
          value={values.label.ko}
          autoFocus={autoFocus && !keyEditable}
          error={problems.label}
          onChange={(event) => setLabel('ko', event.target.value)}
        />
        <TextField
          label={t('dialog.labelEn')}
          lang="en"
          value={values.label.en}
          onChange={(event) => setLabel('en', event.target.value)}
        />
      </div>
      <p className={styles.hint}>{t('dialog.labelHint')}</p>
    </>
  );
}
