import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, session } from './api';
import { Link, matchPath, navigate, usePath } from './router';
import { HoldingPage } from './pages/HoldingPage';
import { OnboardingPage } from './pages/OnboardingPage';
import { RebalancePage } from './pages/RebalancePage';
import { RiskPage } from './pages/RiskPage';
import { AdminUsersPage, useIsAdmin } from './pages/AdminUsersPage';
import { AssistantPage } from './pages/AssistantPage';
import { DashboardPage } from './pages/DashboardPage';
import { HoldingsPage } from './pages/HoldingsPage';
import { LoginPage, SignupPage } from './pages/AuthPages';
import { MarketsPage } from './pages/MarketsPage';
import { TransactionsPage } from './pages/TransactionsPage';
import { AlertsPage } from './pages/AlertsPage';
import { BriefingPage } from './pages/BriefingPage';
import { InboxPage } from './pages/InboxPage';
import { SettingsPage } from './pages/SettingsPage';
import { InboxLink } from './components/InboxLink';

type PageProps = { params: Record<string, string> };

/** Every signed-in page; those with `nav` appear in the header. */
const PAGES: { path: string; title: string; nav: boolean; Page: (props: PageProps) => React.JSX.Element }[] =
  [
    { path: '/onboarding', title: 'Preferences', nav: false, Page: OnboardingPage },
    { path: '/dashboard', title: 'Dashboard', nav: true, Page: DashboardPage },
    { path: '/holdings', title: 'Holdings', nav: true, Page: HoldingsPage },
    { path: '/holdings/:symbol', title: 'Holding', nav: false, Page: HoldingPage },
    { path: '/transactions', title: 'Transactions', nav: true, Page: TransactionsPage },
    { path: '/rebalance', title: 'Rebalance', nav: true, Page: RebalancePage },
    { path: '/risk', title: 'Risk', nav: true, Page: RiskPage },
    { path: '/markets', title: 'Markets & news', nav: true, Page: MarketsPage },
    { path: '/assistant', title: 'Assistant', nav: true, Page: AssistantPage },
    { path: '/admin/users', title: 'Users', nav: false, Page: AdminUsersPage },
    { path: '/briefing', title: 'Briefing', nav: true, Page: BriefingPage },
    { path: '/alerts', title: 'Alerts', nav: true, Page: AlertsPage },
    { path: '/inbox', title: 'Inbox', nav: false, Page: InboxPage },
    { path: '/settings', title: 'Settings', nav: true, Page: SettingsPage },
  ];
const PUBLIC_PAGES = [
  { path: '/login', title: 'Log in', Page: LoginPage },
  { path: '/signup', title: 'Sign up', Page: SignupPage },
];

/** Signed-in state: restored once per page load (another tab, the stored refresh token, the cookie). */
function useSignedIn(): boolean | null {
  const [signedIn, setSignedIn] = useState<boolean | null>(session.signedIn ? true : null);
  const queryClient = useQueryClient();
  useEffect(() => {
    session.onChange = (value) => {
      if (!value) queryClient.clear();
      setSignedIn(value);
    };
    void session.restore().then(setSignedIn);
  }, [queryClient]);
  return signedIn;
}

export function App() {
  const signedIn = useSignedIn();
  const path = usePath();
  const publicPage = PUBLIC_PAGES.find((page) => page.path === path);
  const page = PAGES.find((candidate) => matchPath(candidate.path, path) !== null);
  const params = page ? matchPath(page.path, path)! : {};
  const title = (publicPage ?? page)?.title;

  useEffect(() => {
    document.title = title ? `${title} · Investment assistant` : 'Investment assistant';
  }, [title]);
  useEffect(() => {
    if (signedIn === null) return;
    if (!signedIn && !publicPage) navigate('/login');
    else if (signedIn && (publicPage || path === '/')) navigate('/dashboard');
  }, [signedIn, publicPage, path]);

  if (signedIn === null) return <p className="loading">Loading…</p>;
  if (publicPage && !signedIn) {
    return (
      <main className="auth-main">
        <publicPage.Page />
      </main>
    );
  }
  return (
    <>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Investment assistant</span>
        <nav aria-label="Main">
          {PAGES.filter(({ nav }) => nav).map(({ path: to, title: label }) => (
            <Link key={to} to={to}>
              {label}
            </Link>
          ))}
          <InboxLink />
          <AdminLink />
        </nav>
        <button type="button" className="secondary" onClick={logOut}>
          Log out
        </button>
      </header>
      <main id="content" tabIndex={-1}>
        {page ? <page.Page params={params} /> : <NotFound />}
      </main>
      <footer>Charts: TradingView Lightweight Charts™.</footer>
    </>
  );
}

/** Users, for administrators only. */
function AdminLink() {
  return useIsAdmin() ? <Link to="/admin/users">Users</Link> : null;
}

async function logOut(): Promise<void> {
  await api.POST('/api/v1/auth/logout', { body: {} }).catch(() => undefined);
  session.signOut();
  navigate('/login');
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <Link to="/dashboard">Back to the dashboard</Link>
    </section>
  );
}
