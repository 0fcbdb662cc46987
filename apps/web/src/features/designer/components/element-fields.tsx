import { keySchema, type LocalizedText } from '@cdms/study';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
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

/**
 * A small form that adds an element by its key alone (a code list, a parameter): the key checked
 * (`keyProblem`), the rest edited in place once it is there.
 */
export function AddKeyForm({
  title,
  hint,
  takenKeys,
  onAdd,
}: {
  title: string;
  hint: string;
  takenKeys: readonly string[];
  onAdd: (key: string) => void;
}) {
  const { t } = useTranslation('designer');
  const [key, setKey] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = keyProblem(key, takenKeys, t);
    setProblem(found);
    if (found) return;
    onAdd(key);
    setKey('');
  }

  return (
    <form className={styles.addForm} onSubmit={submit} noValidate aria-label={title}>
      <h3 className={styles.outlineSectionTitle}>{title}</h3>
      <TextField
        label={t('dialog.key')}
        value={key}
        autoComplete="off"
        spellCheck={false}
        maxLength={40}
        hint={hint}
        error={problem}
        onChange={(event) => setKey(event.target.value.trim())}
      />
      <Button type="submit" size="sm" variant="secondary">
        {title}
      </Button>
    </form>
  );
}
