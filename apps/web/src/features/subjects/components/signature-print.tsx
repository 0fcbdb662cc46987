import type { Language, StudyDefinition } from '@cdms/study';
import { useTranslation } from 'react-i18next';
import { formatDateTimeKst } from '../../../lib/date-time.ts';
import { changedItemsText, useSignature } from './signature-panel.tsx';
import styles from './signature-print.module.css';

/** The signature manifestation as printed with the signing form (product.md: screen and PDF). */
export function SignaturePrint({
  studyId,
  subjectPk,
  definition,
  language,
}: {
  studyId: number;
  subjectPk: number;
  definition: StudyDefinition;
  language: Language;
}) {
  const { i18n } = useTranslation('signature');
  const t = i18n.getFixedT(language, 'signature');
  const signature = useSignature(studyId, subjectPk);
  if (!signature.data) return null;
  const { state, current } = signature.data;
  return (
    <section className={styles.print}>
      <h2>
        {t('panel.title')}: {t(`panel.state.${state}`)}
      </h2>
      {current ? (
        <table>
          <tbody>
            <tr>
              <th>{t('panel.signedBy')}</th>
              <td>
                {current.printedName}
                {current.role ? ` (${t(`roles.${current.role}`)})` : ''}
              </td>
            </tr>
            <tr>
              <th>{t('panel.signedAt')}</th>
              <td>{formatDateTimeKst(current.signedAt)}</td>
            </tr>
            <tr>
              <th>{t('panel.meaning')}</th>
              <td>{current.meaning[language]}</td>
            </tr>
            <tr>
              <th>{t('panel.dataHash')}</th>
              <td>{current.dataHash}</td>
            </tr>
            {current.invalidatedAt ? (
              <tr>
                <th>{t('panel.changed')}</th>
                <td>
                  {formatDateTimeKst(current.invalidatedAt)}{' '}
                  {changedItemsText(definition, current.invalidatedReason ?? '', language)}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      ) : (
        <p>{t('panel.noneText')}</p>
      )}
    </section>
  );
}
