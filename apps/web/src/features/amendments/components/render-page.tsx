import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AlertDialogProvider } from '../../../components/alert-dialog.tsx';
import { ModalStackProvider } from '../../../components/modal-stack-provider.tsx';
import { ToastProvider } from '../../../components/toast.tsx';
import { paths } from '../../../lib/paths.ts';
import { AmendmentListPage } from './amendment-list-page.tsx';
import { AmendmentPage } from './amendment-page.tsx';

/** Both amendment pages and the designer (a stand-in) under the app's providers, at `address`. */
export function renderAmendmentPages(address: string) {
  const router = createMemoryRouter(
    [
      { path: paths.amendments, element: <AmendmentListPage /> },
      { path: paths.amendment, element: <AmendmentPage /> },
      { path: paths.design, element: <p>designer</p> },
    ],
    { initialEntries: [address] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <ModalStackProvider>
          <AlertDialogProvider>
            <RouterProvider router={router} />
          </AlertDialogProvider>
        </ModalStackProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return router;
}
