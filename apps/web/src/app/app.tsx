import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { meQueryOptions } from '../lib/me.ts';
import { createQueryClient } from './query-client.ts';
import { router } from './router.tsx';

/**
 * The query client sits above the router; the providers that navigate (session, dialogs) sit in
 * the root route, `RootLayout`.
 */
export function App() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    // Who is signed in is asked at once, while the router still loads the first page's code, not
    // after it (every page waits for the answer).
    void client.prefetchQuery(meQueryOptions);
    return client;
  });
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
