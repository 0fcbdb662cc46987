import { QueryClient } from '@tanstack/react-query';

const ONE_HOUR_MS = 60 * 60 * 1000;

/**
 * prototype-spec §7: data stays fresh for an hour and is kept an hour, a failed fetch is not
 * retried (the API client already renews an expired session once), and data is refetched when the
 * window regains focus.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: ONE_HOUR_MS,
        gcTime: ONE_HOUR_MS,
        retry: false,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
