import { createBrowserRouter, Navigate } from 'react-router';
import { RouteErrorPage } from '../features/errors/components/route-error-page.tsx';
import { paths } from './paths.ts';
import { ProtectedRoute } from './protected-route.tsx';
import { RootLayout } from './root-layout.tsx';

/** Route modules load lazily: the landing page does not pay for pages the user has not opened. */
export const router = createBrowserRouter([
  {
    // Providers shared by every page (session, modal stack, alerts, toasts): see root-layout.tsx.
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        path: paths.landing,
        // Features do not import each other: the app puts the auth feature's login button and
        // account menu into the landing page.
        lazy: async () => {
          const [{ LandingPage }, { LandingAccount }] = await Promise.all([
            import('../features/landing/components/landing-page.tsx'),
            import('../features/auth/components/landing-account.tsx'),
          ]);
          return { element: <LandingPage accountArea={<LandingAccount />} /> };
        },
      },
      {
        // Every page but `/` and `/404` needs a signed-in user (prototype-spec §6).
        element: <ProtectedRoute />,
        children: [
          {
            lazy: async () => ({ Component: (await import('./app-layout.tsx')).AppLayout }),
            children: [
              {
                path: paths.taskList,
                lazy: async () => ({
                  Component: (await import('../features/placeholder/components/placeholder-page.tsx'))
                    .PlaceholderPage,
                }),
              },
              {
                path: paths.taskEndList,
                lazy: async () => ({
                  Component: (await import('../features/placeholder/components/placeholder-page.tsx'))
                    .PlaceholderPage,
                }),
              },
              {
                path: paths.formPreview,
                lazy: async () => ({
                  Component: (await import('../features/form-preview/components/form-preview-page.tsx'))
                    .FormPreviewPage,
                }),
              },
              {
                // Administration (system administrators; the server answers 403 to anyone else).
                lazy: async () => ({
                  Component: (await import('../features/admin/components/admin-layout.tsx')).AdminLayout,
                }),
                children: [
                  { path: paths.admin, element: <Navigate to={paths.adminUsers} replace /> },
                  {
                    path: paths.adminUsers,
                    lazy: async () => ({
                      Component: (await import('../features/admin/components/users-page.tsx')).UsersPage,
                    }),
                  },
                  {
                    path: paths.adminSites,
                    lazy: async () => ({
                      Component: (await import('../features/admin/components/sites-page.tsx')).SitesPage,
                    }),
                  },
                  {
                    path: paths.adminMemberships,
                    lazy: async () => ({
                      Component: (await import('../features/admin/components/memberships-page.tsx'))
                        .MembershipsPage,
                    }),
                  },
                ],
              },
            ],
          },
        ],
      },
      {
        path: paths.notFound,
        lazy: async () => ({
          Component: (await import('../features/errors/components/not-found-page.tsx')).NotFoundPage,
        }),
      },
      { path: '*', element: <Navigate to={paths.notFound} replace /> },
    ],
  },
]);
