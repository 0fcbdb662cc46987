import type { SubjectSummary } from '@cdms/contract';
import type { FormLayout, FormValues, Language, StudyDefinition } from '@cdms/study';
import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { formatValue } from '../../../components/crf-form/crf-item.tsx';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import styles from './print-view.module.css';

/**
 * The form as printed by the browser (Ctrl+P; "save as PDF" in the print dialog gives the
 * file): subject header and every item with its saved value. On screen it is hidden; in print it is the
 * only thing on the page. The toolbar's PDF button downloads the server's casebook PDF instead.
 */
export function PrintView({
  definition,
  layout,
  subject,
  visitLabel,
  values,
  version,
  definitionVersion,
  language,
  children,
}: {
  definition: StudyDefinition;
  layout: FormLayout;
  subject: SubjectSummary;
  visitLabel: string;
  values: FormValues;
  version: number;
  definitionVersion: string;
  language: Language;
  /** Printed after the items (the signing form's signature manifestation). */
  children?: ReactNode;
}) {
  const { i18n } = useTranslation('subjects');
  const t = i18n.getFixedT(language, 'subjects');
  const text = (itemKey: string, value: unknown) => {
    const item = layout.items.get(itemKey)?.item;
    return item ? formatValue(definition, item, (value ?? null) as never, language) : '';
  };
  return createPortal(
    <div className={styles.printRoot} lang={language}>
      <h1 className={styles.title}>{t('print.title')}</h1>
      <table className={styles.header}>
        <tbody>
          <tr>
            <th>{t('print.subject')}</th>
            <td>
              {subject.subjectId} ({subject.initials})
            </td>
            <th>{t('print.site')}</th>
            <td>{subject.siteCode}</td>
          </tr>
          <tr>
            <th>{t('print.visit')}</th>
            <td>{visitLabel}</td>
            <th>{t('print.form')}</th>
            <td>{layout.form.label[language]}</td>
          </tr>
          <tr>
            <th>{t('print.printedAt')}</th>
            <td>{formatDateTimeKst(new Date())}</td>
            <td colSpan={2}>{t('print.version', { version, definition: definitionVersion })}</td>
          </tr>
        </tbody>
      </table>
      {layout.sections.map((section) => (
        <section key={section.key} className={styles.section}>
          <h2 className={styles.sectionTitle}>{section.label[language]}</h2>
          {section.repeating ? (
            (Array.isArray(values[section.repeating.key])
              ? (values[section.repeating.key] as FormValues[])
              : []
            ).map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no id; the print is static.
              <table key={index} className={styles.items}>
                <caption>#{index + 1}</caption>
                <tbody>
                  {section.items.map((item) => (
                    <tr key={item.key}>
                      <th>{item.label[language]}</th>
                      <td>{formatValue(definition, item, (row?.[item.key] ?? null) as never, language)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ))
          ) : (
            <table className={styles.items}>
              <tbody>
                {section.items.map((item) => (
                  <tr key={item.key}>
                    <th>
                      {item.label[language]}
                      {item.unit ? ` (${item.unit})` : ''}
                    </th>
                    <td>{text(item.key, values[item.key])}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
      {children}
    </div>,
    document.body,
  );
}
