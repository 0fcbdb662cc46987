import type { Language, StudyDefinition, SubjectData } from '@cdms/study';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AlertDialogProvider } from '../alert-dialog.tsx';
import { ModalStackProvider } from '../modal-stack-provider.tsx';
import '../../i18n/i18n.ts';
import { CrfForm, type CrfFormProps } from './crf-form.tsx';
import { createSubjectStore } from './subject-store.ts';

/** The providers the app puts above every page that the form uses (row removal asks through them). */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <ModalStackProvider>
      <AlertDialogProvider>{children}</AlertDialogProvider>
    </ModalStackProvider>
  );
}

interface RenderFormOptions
  extends Partial<Omit<CrfFormProps, 'definition' | 'visitKey' | 'formKey' | 'store'>> {
  data?: SubjectData;
  language?: Language;
}

export function renderForm(
  definition: StudyDefinition,
  visitKey: string,
  formKey: string,
  { data = {}, language = 'ko', ...props }: RenderFormOptions = {},
) {
  const store = createSubjectStore(data);
  const result = render(
    <Providers>
      <CrfForm
        definition={definition}
        visitKey={visitKey}
        formKey={formKey}
        store={store}
        language={language}
        today="2025-06-20"
        evaluationDelayMs={0}
        {...props}
      />
    </Providers>,
  );
  return { ...result, store };
}
