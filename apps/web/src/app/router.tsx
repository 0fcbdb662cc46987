import { createBrowserRouter, Navigate } from 'react-router';
import { RouteErrorPage } from '../features/errors/components/route-error-page.tsx';
import { paths } from './paths.ts';

/** Route modules load lazily: the landing page does not pay for pages the user has not opened. */
export const router = createBrowserRouter([
  {
    errorElement: <RouteErrorPage />,
    children: [
      {
        path: paths.landing,
        lazy: async () => ({
          Component: (await import('../features/landing/components/landing-page.tsx')).LandingPage,
        }),
      },
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
        path: paths.notFound,
        lazy: async () => ({
          Component: (await import('../features/errors/components/not-found-page.tsx')).NotFoundPage,
        }),
      },
      { path: '*', element: <Navigate to={paths.notFound} replace /> },
    ],
  },
]);
