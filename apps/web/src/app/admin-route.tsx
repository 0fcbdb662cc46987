import { AdminLayout } from '../features/admin/components/admin-layout.tsx';
import { useAuth } from '../features/auth/components/auth-provider.tsx';

/**
 * `/admin/*`: the admin feature with what the server said of the user in `me` (features do not
 * import each other; the app puts them together). Someone who is not a system administrator gets
 * "no permission" at once, without asking the server for pages it would refuse.
 */
export function AdminRoute() {
  const { me } = useAuth();
  return <AdminLayout isAdmin={me?.user.isAdmin === true} />;
}
