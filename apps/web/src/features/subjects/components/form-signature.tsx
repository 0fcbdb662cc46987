import type { FormDataResponse } from '@cdms/contract';
import { isSigningForm, type Language, type StudyDefinition } from '@cdms/study';
import { useTranslation } from 'react-i18next';
import type { FormAddress } from '../api/forms.ts';
import { SignaturePanel, useSignature } from './signature-panel.tsx';
import { SignaturePrint } from './signature-print.tsx';
import styles from './subject-detail.module.css';

/**
 * The PI's signature, for the form editor's slots. The signing form is filled only by the signature:
 * there the panel stands in place of the form's banner and the printout carries the signature. On any
 * other form a save of signed data invalidates the signature, so the editor warns before it happens.
 */
export function useFormSignature({
  address,
  formData,
  definition,
  language,
  onSigned,
}: {
  address: FormAddress;
  formData: FormDataResponse;
  definition: StudyDefinition;
  language: Language;
  onSigned: () => void;
}) {
  const { t } = useTranslation('signature');
  const { studyId, subjectPk, visitKey, formKey } = address;
  const signingForm = isSigningForm(definition, visitKey, formKey);
  const signature = useSignature(studyId, subjectPk, formData.abilities.edit);
  return {
    /** The signing form's panel; null on every other form. */
    panel: signingForm ? (
      <SignaturePanel
        studyId={studyId}
        subjectPk={subjectPk}
        subjectLabel={formData.subject.subjectId}
        definition={definition}
        language={language}
        onSigned={onSigned}
      />
    ) : null,
    /** The warning over an editable form of a signed casebook. */
    editWarning:
      signature.data?.state === 'signed' ? (
        <p className={styles.banner} data-tone="warning" role="note">
          {t('editWarning')}
        </p>
      ) : null,
    /** The signature in the signing form's printout. */
    print: signingForm ? (
      <SignaturePrint studyId={studyId} subjectPk={subjectPk} definition={definition} language={language} />
    ) : null,
  };
}
