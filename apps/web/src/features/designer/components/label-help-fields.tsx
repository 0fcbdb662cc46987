import type { LocalizedText } from '@cdms/study';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../components/text-field.tsx';
import styles from './designer.module.css';

type Language = keyof LocalizedText;

/**
 * An element's label and help, each in Korean and English, as the item and section properties ask
 * them. Help left empty in both languages is no help at all (`onHelp` gets undefined).
 */
export function LabelAndHelpFields({
  label,
  help,
  readOnly,
  onLabel,
  onHelp,
}: {
  label: LocalizedText;
  help: LocalizedText | undefined;
  readOnly: boolean;
  onLabel: (label: LocalizedText, language: Language) => void;
  onHelp: (help: LocalizedText | undefined, language: Language) => void;
}) {
  const { t } = useTranslation('designer');
  const setHelp = (language: Language, text: string) => {
    const next = { ...(help ?? { ko: '', en: '' }), [language]: text };
    onHelp(next.ko === '' && next.en === '' ? undefined : next, language);
  };
  const fields: { name: string; lang: Language; value: string; change: (text: string) => void }[] = [
    {
      name: t('dialog.labelKo'),
      lang: 'ko',
      value: label.ko,
      change: (text) => onLabel({ ...label, ko: text }, 'ko'),
    },
    {
      name: t('dialog.labelEn'),
      lang: 'en',
      value: label.en,
      change: (text) => onLabel({ ...label, en: text }, 'en'),
    },
    { name: t('form.helpKo'), lang: 'ko', value: help?.ko ?? '', change: (text) => setHelp('ko', text) },
    { name: t('form.helpEn'), lang: 'en', value: help?.en ?? '', change: (text) => setHelp('en', text) },
  ];
  return (
    <fieldset className={styles.propertyGroup} disabled={readOnly}>
      <legend>{t('form.texts')}</legend>
      <div className={styles.labelFields}>
        {fields.map((field) => (
          <TextField
            key={field.name}
            label={field.name}
            lang={field.lang}
            value={field.value}
            onChange={(event) => field.change(event.target.value)}
          />
        ))}
      </div>
    </fieldset>
  );
}
