import { type TwoFactorSettingBody, twoFactorSettingSchema } from '@cdms/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { adminQueryKeys } from './admin-query-keys.ts';

/** GET /api/admin/settings/two-factor: whether ADMIN and DM (and system administrators) must use two-factor sign-in. */
export function useTwoFactorSetting() {
  return useQuery({
    queryKey: adminQueryKeys.twoFactorSetting,
    // Read again whenever the users page opens: another administrator may have changed it, and a
    // stale checkbox here would misstate who is held to enrolment.
    staleTime: 0,
    queryFn: async () =>
      twoFactorSettingSchema.parse(await apiRequest<unknown>('/api/admin/settings/two-factor')),
  });
}

/** PUT /api/admin/settings/two-factor (audited by the server). */
export function useUpdateTwoFactorSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (setting: TwoFactorSettingBody) =>
      twoFactorSettingSchema.parse(
        await apiRequest<unknown>('/api/admin/settings/two-factor', { method: 'PUT', body: setting }),
      ),
    onSuccess: (saved) => queryClient.setQueryData(adminQueryKeys.twoFactorSetting, saved),
  });
}
