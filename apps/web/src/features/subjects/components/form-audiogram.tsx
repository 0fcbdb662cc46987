import { audiogramLayout, type StudyDefinition } from '@cdms/study';
import { useMemo } from 'react';
import type { SubjectStore } from '../../../components/crf-form/subject-store.ts';
import type { FormAddress } from '../api/forms.ts';
import { PtaAudiogram } from './audiogram.tsx';

/**
 * The PTA form's audiogram, for the form editor's slot under the form: its thresholds drawn live from
 * the store (the treated ear read from another form). Null on every other form.
 */
export function useFormAudiogram({
  address,
  definition,
  store,
}: {
  address: FormAddress;
  definition: StudyDefinition;
  store: SubjectStore;
}) {
  const { visitKey, formKey } = address;
  const audiogram = useMemo(() => {
    const layout = audiogramLayout(definition);
    return layout?.form === formKey ? layout : null;
  }, [formKey, definition]);
  return {
    chart: audiogram ? <PtaAudiogram store={store} visitKey={visitKey} layout={audiogram} /> : null,
  };
}
