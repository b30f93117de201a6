import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { i18n } from '@bahi/i18n';
import { Spinner } from '@bahi/ui-kit';
import { prefetchRemoteList } from './federation/remotes';
import './i18n';
import { makeRouter } from './router';
import './shell.css';

prefetchRemoteList();
// The first render waits for the shell's and ui-kit's catalogues (fetched now, beside the user's
// data) instead of suspending on them: a suspended first screen shows its content later. Suspense
// stays for a language switch, which loads the other language's catalogues.
void i18n.loadNamespaces(['shell', 'ui']).then(() =>
  createRoot(document.getElementById('root')!).render(
    <Suspense fallback={<Spinner />}>
      <RouterProvider router={makeRouter()} />
    </Suspense>,
  ),
);
