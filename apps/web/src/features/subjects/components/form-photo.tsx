import type { FormLayout, Language, StudyDefinition } from '@cdms/study';
import { useMemo } from 'react';
import type { SubjectStore } from '../../../components/crf-form/subject-store.ts';
import type { FormAddress } from '../api/forms.ts';
import { BaselinePhotoComparison, tympanicPhotoControls } from './tympanic-photo.tsx';

/**
 * The photo and tracing items (issue 19), for the form editor's slots: the controls the renderer draws
 * those items with, and, on a follow-up's photo form that reads the baseline visit's photo form (V4–V6
 * read V2's for the decrease), that baseline photo beside its own.
 */
export function useFormPhoto({
  address,
  definition,
  layout,
  language,
  visitLabel,
  store,
  references,
}: {
  address: FormAddress;
  definition: StudyDefinition;
  layout: FormLayout;
  language: Language;
  visitLabel: string;
  store: SubjectStore;
  /** The other forms this form's rules read. */
  references: readonly { visitKey: string; formKey: string }[];
}) {
  const { studyId, subjectPk, visitKey, formKey } = address;
  const itemControl = useMemo(
    () => tympanicPhotoControls({ studyId, subjectPk, visitKey, formKey }),
    [studyId, subjectPk, visitKey, formKey],
  );
  const baselinePhoto = useMemo(() => {
    const hasPhoto = [...layout.items.values()].some((place) => place.item.type === 'photo');
    if (!hasPhoto) return null;
    const isBaseline = (key: string) =>
      definition.visits.find((visit) => visit.key === key)?.group === 'baseline';
    return (
      references.find(
        (ref) => ref.formKey === formKey && ref.visitKey !== visitKey && isBaseline(ref.visitKey),
      ) ?? null
    );
  }, [layout, references, formKey, visitKey, definition]);
  const comparison = baselinePhoto ? (
    <BaselinePhotoComparison
      address={{ studyId, subjectPk, visitKey, formKey }}
      store={store}
      baseline={baselinePhoto}
      visitLabel={visitLabel}
      baselineLabel={
        definition.visits.find((visit) => visit.key === baselinePhoto.visitKey)?.label[language] ??
        baselinePhoto.visitKey
      }
    />
  ) : null;
  return { itemControl, comparison };
}
