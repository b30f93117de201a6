import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { Spinner } from '@bahi/ui-kit';
import { RemotePage } from './federation/RemotePage';
import { adminLoader, managerOnly, notFound, passwordLoader, shellLoader } from './guards';
import { AdminLayout } from './layout/AdminLayout';
import { Layout } from './layout/Layout';
import { ErrorPage } from './pages/ErrorPage';
import { LoginPage } from './pages/LoginPage';
import { LogoutPage } from './pages/LogoutPage';
import { PublicAddressCard } from './pages/PublicAddressCard';
import { SettingPage } from './pages/SettingPage';
import { UpdatePasswordPage } from './pages/UpdatePasswordPage';
import { REMOTE_AREAS } from './remoteAreas';
import { Root } from './Root';

const remoteRoutes: RouteObject[] = REMOTE_AREAS.map((a) => ({
  path: a.path ? `${a.path}/*` : undefined,
  index: a.path === '' ? true : undefined,
  loader: a.managerOnly ? managerOnly : undefined,
  handle: { title: a.title },
  element: <RemotePage key={a.path} remote={a.remote} module={a.module} />,
})) as RouteObject[];

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <Spinner />,
    children: [
      { path: 'loginApp', element: <LoginPage /> },
      { path: 'logout', element: <LogoutPage /> },
      // Outside the shell (spec 001 §2), so a temporary password, or the platform admin, reaches it.
      { path: 'updatePassword', loader: passwordLoader, element: <UpdatePasswordPage /> },
      {
        // The platform admin's Setting (the shop's public address): a shell card, as managers see it read-only.
        path: 'admin/setting',
        loader: adminLoader,
        shouldRevalidate: () => false,
        element: (
          <AdminLayout>
            <PublicAddressCard />
          </AdminLayout>
        ),
      },
      {
        // The admin remote's own <Routes> take everything under /admin.
        path: 'admin/*',
        loader: adminLoader,
        shouldRevalidate: () => false,
        element: (
          <AdminLayout>
            <RemotePage remote="admin" module="./AdminApp" />
          </AdminLayout>
        ),
      },
      {
        path: '/',
        id: 'shell',
        loader: shellLoader,
        shouldRevalidate: () => false,
        element: <Layout />,
        children: [
          {
            // Errors inside the shell show in the content area; sidebar and top bar stay.
            errorElement: <ErrorPage />,
            children: [
              ...remoteRoutes,
              { path: 'setting', handle: { title: 'Setting' }, loader: managerOnly, element: <SettingPage /> },
              { path: '*', loader: notFound, element: null },
            ],
          },
        ],
      },
    ],
  },
];

export function makeRouter() {
  return createBrowserRouter(routes);
}
