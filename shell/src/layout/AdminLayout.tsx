import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { PageHeaderProvider, PageHeaderSlot, UserProvider } from '@bahi/ui-kit';
import { fetchUser, useCurrentUser } from '../userStore';
import { BackupBanner } from './BackupBanner';
import { Footer, NavigationProgress } from './Layout';
import { ProfileMenu } from './ProfileMenu';

/** The platform administration frame: no staff sidebar, just the top bar with logout. */
export function AdminLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('shell');
  const user = useCurrentUser();
  return (
    <UserProvider value={{ user, refresh: async () => void (await fetchUser()) }}>
      <PageHeaderProvider>
        <div className="sh-admin">
          <header className="sh-topbar sh-topbar--admin">
            {/* A link back to the companies from the shell's own admin pages (Setting), outside the admin remote's tabs. */}
            <Link className="sh-brand sh-brand--light" to="/admin" data-testid="admin-home">
              <span className="sh-brand__mark">ब</span>
              <span className="sh-brand__name">{t('brand.admin')}</span>
            </Link>
            <div className="sh-topbar__middle">
              <PageHeaderSlot />
            </div>
            <ProfileMenu name={user?.name ?? ''} manager={false} admin />
          </header>
          <NavigationProgress />
          <main className="sh-content sh-content--admin">
            <BackupBanner position={user?.position} />
            {children}
          </main>
          <Footer />
        </div>
      </PageHeaderProvider>
    </UserProvider>
  );
}
