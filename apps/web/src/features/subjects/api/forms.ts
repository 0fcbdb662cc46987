import type { AuditEntry, FormComment, FormDataResponse } from '@cdms/contract';
import type { FormValues } from '@cdms/study';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { formPath, subjectKeys, subjectPath } from './subject-query-keys.ts';

export interface FormAddress {
  studyId: number;
  subjectPk: number;
  visitKey: string;
  formKey: string;
}

function fetchForm({ studyId, subjectPk, visitKey, formKey }: FormAddress): Promise<FormDataResponse> {
  return apiRequest<FormDataResponse>(formPath(studyId, subjectPk, visitKey, formKey));
}

export function useFormData(address: FormAddress) {
  const { studyId, subjectPk, visitKey, formKey } = address;
  return useQuery({
    queryKey: subjectKeys.form(studyId, subjectPk, visitKey, formKey),
    queryFn: () => fetchForm(address),
    // No form addressed yet (the page's default waits for the study definition): nothing to load.
    enabled: visitKey !== '' && formKey !== '',
    // The page holds the user's edits on top of what it loaded: a refetch on focus must not move the
    // base version under them. Saves and resets put the server's answer in the cache themselves.
    refetchOnWindowFocus: false,
    staleTime: 0,
  });
}

/**
 * Other forms the current form's rules read (age needs the consent date, windows need the V1 visit date…).
 * Failures are ignored: the server evaluates the rules again on save, the page only loses a live hint.
 */
export function useReferencedForms(
  studyId: number,
  subjectPk: number,
  forms: readonly { visitKey: string; formKey: string }[],
) {
  return useQueries({
    queries: forms.map(({ visitKey, formKey }) => ({
      queryKey: subjectKeys.form(studyId, subjectPk, visitKey, formKey),
      queryFn: () => fetchForm({ studyId, subjectPk, visitKey, formKey }),
      refetchOnWindowFocus: false,
      retry: false,
    })),
    combine: referencedData,
  });
}

/** Only the data, as one array that keeps its identity while no form changes (an effect's dependency). */
function referencedData(
  results: { data?: FormDataResponse | undefined }[],
): (FormDataResponse | undefined)[] {
  return results.map((result) => result.data);
}

export interface SaveFormInput {
  values: FormValues;
  version: number;
  reasons: Record<string, string>;
}

/** Saves a form. Errors (409, 422 reason_required…) are the caller's to handle: see the detail page. */
export function useSaveForm(address: FormAddress) {
  const queryClient = useQueryClient();
  const { studyId, subjectPk, visitKey, formKey } = address;
  return useMutation({
    mutationFn: (input: SaveFormInput) =>
      apiRequest<FormDataResponse>(formPath(studyId, subjectPk, visitKey, formKey), {
        method: 'PUT',
        body: input,
      }),
    onSuccess: (data) => afterWrite(queryClient, address, data),
  });
}

export function useResetForm(address: FormAddress) {
  const queryClient = useQueryClient();
  const { studyId, subjectPk, visitKey, formKey } = address;
  return useMutation({
    mutationFn: (input: { version: number; reason: string }) =>
      apiRequest<FormDataResponse>(`${formPath(studyId, subjectPk, visitKey, formKey)}/reset`, {
        method: 'POST',
        body: input,
      }),
    onSuccess: (data) => afterWrite(queryClient, address, data),
  });
}

function afterWrite(
  queryClient: ReturnType<typeof useQueryClient>,
  { studyId, subjectPk, visitKey, formKey }: FormAddress,
  data: FormDataResponse,
) {
  const ownKey = subjectKeys.form(studyId, subjectPk, visitKey, formKey);
  queryClient.setQueryData(ownKey, data);
  // Everything else of the subject may have moved: status icons, history, comments, derived values of
  // other forms (ages follow a corrected consent date). The form itself is the answer just stored.
  void queryClient.invalidateQueries({
    queryKey: subjectKeys.subject(studyId, subjectPk),
    predicate: (query) => JSON.stringify(query.queryKey) !== JSON.stringify(ownKey),
  });
  void queryClient.invalidateQueries({ queryKey: subjectKeys.list(studyId) });
}

export function useAddComment(address: FormAddress) {
  const queryClient = useQueryClient();
  const { studyId, subjectPk, visitKey, formKey } = address;
  return useMutation({
    mutationFn: (input: { sectionKey: string; text: string }) =>
      apiRequest<FormComment>(`${formPath(studyId, subjectPk, visitKey, formKey)}/comments`, {
        method: 'POST',
        body: input,
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: subjectKeys.form(studyId, subjectPk, visitKey, formKey) }),
  });
}

/**
 * The audit trail of one form, or of one of its items (`itemKey`: its value changes), newest first,
 * for the edit-history modals. `enabled` while the modal is open.
 */
export function useFormAudit(address: FormAddress, enabled: boolean, itemKey?: string) {
  const { studyId, subjectPk, visitKey, formKey } = address;
  return useQuery({
    queryKey: subjectKeys.audit(studyId, subjectPk, visitKey, formKey, itemKey),
    queryFn: async () => {
      const search = new URLSearchParams({
        visit: visitKey,
        form: formKey,
        ...(itemKey ? { item: itemKey } : {}),
      });
      return (
        await apiRequest<{ entries: AuditEntry[] }>(`${subjectPath(studyId, subjectPk)}/audit?${search}`)
      ).entries;
    },
    enabled,
    staleTime: 0,
  });
}
