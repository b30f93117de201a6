import { useEffect, useState } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router-dom';
import { useTranslation } from '@bahi/i18n';
import { PageHeaderProvider, PageHeaderSlot, Spinner, UserProvider } from '@bahi/ui-kit';
import { fetchUser, useCurrentUser } from '../userStore';
import { BackupBanner } from './BackupBanner';
import { Icon } from './Icon';
import { useAreaLabel } from './labels';
import { ProfileMenu } from './ProfileMenu';
import { Sidebar } from './Sidebar';

const COLLAPSED_KEY = 'sidebarCollapsed';
const PHONE = '(max-width: 767.98px)';

export function Footer() {
  const { t } = useTranslation('shell');
  return <footer className="sh-footer">{t('footer', { year: String(new Date().getFullYear()) })}</footer>;
}

/** Spinner while a navigation loads (route loaders, a remote's first load). */
export function NavigationProgress() {
  const { t } = useTranslation('shell');
  const busy = useNavigation().state !== 'idle';
  return busy ? (
    <div className="sh-progress" data-testid="navigating">
      <Spinner inline label={t('layout.loadingPage')} />
    </div>
  ) : null;
}

/** The main shell: collapsible sidebar (250/70), top bar, content, footer. */
export function Layout() {
  const { t } = useTranslation('shell');
  const label = useAreaLabel();
  const user = useCurrentUser();
  // Below 768 px (a phone) the sidebar starts closed whatever was chosen on a wider screen.
  const [collapsed, setCollapsed] = useState(() => window.matchMedia(PHONE).matches || localStorage.getItem(COLLAPSED_KEY) === '1');
  const { pathname } = useLocation();
  // On a phone the open sidebar covers the page: a chosen entry closes it.
  useEffect(() => {
    if (window.matchMedia(PHONE).matches) setCollapsed(true);
  }, [pathname]);
  const matches = useMatches();
  const title = [...matches].reverse().map((m) => (m.handle as { title?: string } | undefined)?.title).find(Boolean);
  const toggle = () =>
    setCollapsed((c) => {
      if (!window.matchMedia(PHONE).matches) localStorage.setItem(COLLAPSED_KEY, c ? '0' : '1');
      return !c;
    });

  return (
    <UserProvider value={{ user, refresh: async () => void (await fetchUser()) }}>
      <PageHeaderProvider>
        <div className="sh-app" style={{ ['--sh-sidebar-w' as string]: collapsed ? '70px' : '250px' }}>
          <Sidebar position={user?.position} collapsed={collapsed} />
          <div className="sh-main">
            <header className="sh-topbar">
              <button type="button" className="sh-icon-btn" aria-label={collapsed ? t('layout.expandSidebar') : t('layout.collapseSidebar')} onClick={toggle}>
                <Icon name="menu" />
              </button>
              <div className="sh-company" data-testid="company-name">
                {user?.companyName}
              </div>
              <div className="sh-topbar__middle">
                <PageHeaderSlot fallback={title ? <span className="sh-page-title">{label(title)}</span> : null} />
              </div>
              <ProfileMenu name={user?.name ?? ''} manager={user?.position === 'manager'} />
            </header>
            <NavigationProgress />
            <main className="sh-content">
              <BackupBanner position={user?.position} />
              <Outlet />
            </main>
            <Footer />
          </div>
        </div>
      </PageHeaderProvider>
    </UserProvider>
  );
}
