import type { FormDataResponse, FormSdv } from '@cdms/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { FormAddress } from './forms.ts';
import { subjectKeys } from './subject-query-keys.ts';

/** What a monitor does to a form's SDV marks (issue 15). */
export type SdvChange =
  | { action: 'verify'; itemKeys: string[] }
  | { action: 'verifyForm' }
  | { action: 'unverify'; itemKeys: string[]; reason: string };

/**
 * Verify items, the whole form, or withdraw marks with a reason. The answer is the form's marks as
 * they now stand: they go into the form's cache at once; the figures that count them (the overview's
 * cells, the SDV page, the board, the subject-info popup) are read again.
 */
export function useSdvChange({ studyId, subjectPk, visitKey, formKey }: FormAddress) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: SdvChange): Promise<FormSdv> => {
      const target = { subjectPk, visitKey, formKey };
      const base = `/api/studies/${studyId}/sdv`;
      if (change.action === 'verifyForm') {
        return apiRequest(`${base}/verify-form`, { method: 'POST', body: target });
      }
      if (change.action === 'verify') {
        return apiRequest(`${base}/verify`, {
          method: 'POST',
          body: { ...target, itemKeys: change.itemKeys },
        });
      }
      return apiRequest(`${base}/unverify`, {
        method: 'POST',
        body: { ...target, itemKeys: change.itemKeys, reason: change.reason },
      });
    },
    onSuccess: (sdv) => {
      const ownKey = subjectKeys.form(studyId, subjectPk, visitKey, formKey);
      queryClient.setQueryData<FormDataResponse>(ownKey, (old) => (old ? { ...old, sdv } : old));
      void queryClient.invalidateQueries({ queryKey: subjectKeys.overview(studyId, subjectPk) });
      void queryClient.invalidateQueries({ queryKey: ['sdv', studyId] });
      void queryClient.invalidateQueries({ queryKey: ['freezing', studyId] });
      void queryClient.invalidateQueries({ queryKey: ['shell', 'subject-info', studyId] });
    },
  });
}
